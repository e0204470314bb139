// SPDX-License-Identifier: Apache-2.0
// render_icon — build-time tool: renders the application icon's SVG into the
// PNG sizes the Freedesktop icon theme wants (hicolor/NxN/apps/poslab.png), so
// the SVG stays the only drawn source and no binary images are committed.
//
//   poslab_render_icon IN.svg OUT.png SIZE
//
// Qt's SVG renderer is the one the app itself uses, so the PNGs look like the
// window icon. Exit status 0 ok, 1 anything else (with a message on stderr).
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>

int main(int argc, char** argv)
{
    // No screen is needed to paint into an image.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() != 4) {
        std::fprintf(stderr, "usage: poslab_render_icon IN.svg OUT.png SIZE\n");
        return 1;
    }
    bool ok = false;
    const int size = args[3].toInt(&ok);
    if (!ok || size < 8 || size > 1024) {
        std::fprintf(stderr, "poslab_render_icon: size '%s' must be a whole number of pixels in [8, 1024]\n",
                     qPrintable(args[3]));
        return 1;
    }
    QSvgRenderer svg(args[1]);
    if (!svg.isValid()) {
        std::fprintf(stderr, "poslab_render_icon: %s is not a readable SVG\n", qPrintable(args[1]));
        return 1;
    }
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.setRenderHint(QPainter::SmoothPixmapTransform);
        svg.render(&p, QRectF(0, 0, size, size));
    }
    if (!image.save(args[2], "PNG")) {
        std::fprintf(stderr, "poslab_render_icon: cannot write %s\n", qPrintable(args[2]));
        return 1;
    }
    return 0;
}
