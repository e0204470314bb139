// SPDX-License-Identifier: Apache-2.0
#include "ui/formula/formula_renderer.h"

#include "util/atomic_file.h"
#include "util/tex_to_unicode.h"

#include "ui/formula/formula_engine.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QMutexLocker>
#include <QPaintEngine>
#include <QPainter>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>
#include <QXmlStreamReader>

#include <algorithm>
#include <future>

namespace poslab::ui {

// ---------------------------------------------------------------- Formula

Formula Formula::fromSvg(const QByteArray& svg)
{
    Formula f;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement) continue;
        if (xml.name() != QLatin1String("svg")) break;
        const auto a = xml.attributes();
        bool okW = false, okH = false, okB = false;
        const qreal w = a.value(QLatin1String("width")).toDouble(&okW);
        const qreal h = a.value(QLatin1String("height")).toDouble(&okH);
        const qreal b = a.value(QLatin1String("data-baseline-px")).toDouble(&okB);
        if (!okW || !okH || w <= 0 || h <= 0) {
            f.error = QStringLiteral("formula SVG without a size in px");
            return f;
        }
        f.svg = svg;
        f.sizePx = QSizeF(w, h);
        f.baselinePx = okB ? b : h;
        if (a.hasAttribute(QLatin1String("data-error"))) {
            f.error = a.value(QLatin1String("data-error")).toString();
            f.ok = false;
        } else {
            f.ok = true;
        }
        return f;
    }
    f.error = xml.hasError() ? QStringLiteral("invalid formula SVG: %1").arg(xml.errorString())
                             : QStringLiteral("invalid formula SVG: no <svg> element");
    return f;
}

Formula Formula::failure(const QString& tex, const QString& message)
{
    // Drawn in the same style as MathJax's own error boxes: red text on a pale box.
    const QString text = message.isEmpty() ? tex : message;
    const qreal em = kReferenceEmPx;
    const qreal w = std::max<qreal>(2 * em, 0.55 * em * text.size() + 0.5 * em);
    const qreal h = 1.25 * em, base = 0.9 * em;
    const QString svg =
        QStringLiteral(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\" "
            "data-baseline-px=\"%3\" data-error=\"%4\">"
            "<rect x=\"0.5\" y=\"0.5\" width=\"%5\" height=\"%6\" fill=\"#fff0f0\" stroke=\"#d00000\"/>"
            "<text x=\"%7\" y=\"%3\" font-family=\"DejaVu Sans\" font-size=\"%8\" fill=\"#d00000\">%4</text></svg>")
            .arg(w)
            .arg(h)
            .arg(base)
            .arg(text.toHtmlEscaped())
            .arg(w - 1)
            .arg(h - 1)
            .arg(0.25 * em)
            .arg(0.8 * em);
    Formula f = fromSvg(svg.toUtf8());
    f.ok = false;
    f.error = text;
    return f;
}

// ---------------------------------------------------------------- renderer

namespace {

QString memoryKey(const QString& tex, bool display)
{
    return (display ? QStringLiteral("d:") : QStringLiteral("i:")) + tex;
}

// Same as prerender.js: hex sha1 of "d:"/"i:" + normalised TeX, in UTF-8.
QByteArray prerenderKey(const QString& key)
{
    return QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha1).toHex();
}

QByteArray readResource(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class FormulaRendererPrivate {
public:
    mutable QMutex mutex;
    QHash<QString, Formula> memory;
    QHash<QString, std::shared_future<Formula>> pending;
    bool prerenderedLoaded = false;
    bool prerenderedEnabled = true;
    QHash<QByteArray, QByteArray> prerendered;  // prerenderKey -> SVG
    QString version;
    QString diskDir;
    FormulaStats stats;
    std::unique_ptr<FormulaEngine> engine;

    void loadPrerenderedLocked()
    {
        if (prerenderedLoaded) return;
        prerenderedLoaded = true;
        const QJsonObject root =
            QJsonDocument::fromJson(readResource(QStringLiteral(":/mathjax/prerendered.json"))).object();
        const QJsonObject formulas = root.value(QLatin1String("formulas")).toObject();
        prerendered.reserve(formulas.size());
        for (auto it = formulas.begin(); it != formulas.end(); ++it)
            prerendered.insert(it.key().toLatin1(), it.value().toString().toUtf8());
    }

    QString diskPath(const QString& key) const
    {
        if (diskDir.isEmpty()) return {};
        const QByteArray h =
            QCryptographicHash::hash((version + QLatin1Char('\n') + key).toUtf8(), QCryptographicHash::Sha1).toHex();
        return diskDir + QLatin1Char('/') + QString::fromLatin1(h) + QStringLiteral(".svg");
    }

    // Memory, pre-rendered, disk; with the mutex held.
    bool lookupLocked(const QString& key, Formula* out)
    {
        if (auto it = memory.constFind(key); it != memory.constEnd()) {
            ++stats.memoryHits;
            *out = *it;
            return true;
        }
        if (prerenderedEnabled) {
            loadPrerenderedLocked();
            if (auto it = prerendered.constFind(prerenderKey(key)); it != prerendered.constEnd()) {
                Formula f = Formula::fromSvg(*it);
                if (!f.isNull()) {
                    ++stats.prerenderedHits;
                    memory.insert(key, f);
                    *out = f;
                    return true;
                }
            }
        }
        if (const QString path = diskPath(key); !path.isEmpty()) {
            QFile file(path);
            if (file.open(QIODevice::ReadOnly)) {
                Formula f = Formula::fromSvg(file.readAll());
                if (!f.isNull()) {
                    ++stats.diskHits;
                    memory.insert(key, f);
                    *out = f;
                    return true;
                }
            }
        }
        return false;
    }

    void writeDisk(const QString& key, const QByteArray& svg)
    {
        QString path;
        {
            QMutexLocker lock(&mutex);
            path = diskPath(key);
        }
        if (path.isEmpty()) return;
        // Atomic: a kill or a full disk leaves no half-written formula (a
        // cache: a failed write only means it is rendered again next time).
        util::writeFileAtomically(path, svg);
    }
};

FormulaRenderer& FormulaRenderer::instance()
{
    static FormulaRenderer* renderer = new FormulaRenderer;  // lives until exit; the worker thread is joined then
    return *renderer;
}

FormulaRenderer::FormulaRenderer() : d(std::make_unique<FormulaRendererPrivate>())
{
    if (QCoreApplication::instance()) moveToThread(QCoreApplication::instance()->thread());
    d->version = QString::fromLatin1(readResource(QStringLiteral(":/mathjax/version.txt")).trimmed());
    if (d->version.isEmpty()) d->version = QStringLiteral("none");
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (!cache.isEmpty()) d->diskDir = cache + QStringLiteral("/formulas");
    d->engine = std::make_unique<FormulaEngine>(QStringLiteral(":/mathjax/mathjax-qjs.js"));
    if (QCoreApplication::instance()) {
        // Join the worker before Qt tears down (a static destructor would be too late).
        QObject::connect(
            QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this, [this] { d->engine->stop(); },
            Qt::DirectConnection);
    }
}

FormulaRenderer::~FormulaRenderer() = default;

QString FormulaRenderer::normalizeTex(const QString& tex)
{
    return tex.simplified();
}

bool FormulaRenderer::lookup(const QString& tex, bool display, Formula* out)
{
    const QString key = memoryKey(normalizeTex(tex), display);
    QMutexLocker lock(&d->mutex);
    return d->lookupLocked(key, out);
}

Formula FormulaRenderer::render(const QString& texIn, bool display)
{
    const QString tex = normalizeTex(texIn);
    if (tex.isEmpty()) return Formula::failure(texIn, tr("Empty formula"));
    const QString key = memoryKey(tex, display);
    std::shared_future<Formula> future;
    {
        QMutexLocker lock(&d->mutex);
        Formula f;
        if (d->lookupLocked(key, &f)) return f;
        auto it = d->pending.constFind(key);
        if (it != d->pending.constEnd()) {
            future = *it;
        } else {
            future = d->engine->submit(tex, display,
                                       [this, key](const FormulaEngineResult& r) { return onEngineResult(key, r); });
            d->pending.insert(key, future);
        }
    }
    return future.get();
}

void FormulaRenderer::prefetch(const QStringList& list, bool display)
{
    for (const QString& t : list) {
        const QString tex = normalizeTex(t);
        if (tex.isEmpty()) continue;
        const QString key = memoryKey(tex, display);
        QMutexLocker lock(&d->mutex);
        Formula f;
        if (d->lookupLocked(key, &f) || d->pending.contains(key)) continue;
        d->pending.insert(key, d->engine->submit(tex, display, [this, key](const FormulaEngineResult& r) {
            return onEngineResult(key, r);
        }));
    }
}

// Called on the engine's thread before the waiting render() calls resume.
Formula FormulaRenderer::onEngineResult(const QString& key, const FormulaEngineResult& r)
{
    Formula f;
    const QString tex = key.mid(2);
    if (!r.engineError.isEmpty()) {
        f = Formula::failure(tex, r.engineError);
    } else {
        f = Formula::fromSvg(r.svg);
        if (f.isNull())
            f = Formula::failure(tex, f.error);
        else
            d->writeDisk(key, r.svg);  // TeX errors are deterministic: cached too
    }
    {
        QMutexLocker lock(&d->mutex);
        ++d->stats.engineRenders;
        d->stats.engineStarts = r.engineStarts;
        d->stats.engineStartMs = r.engineStartMs;
        d->memory.insert(key, f);
        d->pending.remove(key);
    }
    const bool display = key.startsWith(QLatin1String("d:"));
    QMetaObject::invokeMethod(
        this, [this, tex, display] { emit formulaReady(tex, display); }, Qt::QueuedConnection);
    return f;
}

void FormulaRenderer::paint(QPainter* painter, const QRectF& target, const Formula& formula)
{
    paint(painter, target, formula, painter->pen().color());
}

void FormulaRenderer::paint(QPainter* painter, const QRectF& target, const Formula& formula, const QColor& color)
{
    if (formula.isNull() || target.isEmpty()) return;
    QByteArray svg = formula.svg;
    svg.replace("currentColor", color.name(QColor::HexRgb).toLatin1());
    QSvgRenderer renderer(svg);
    if (!renderer.isValid()) return;
    renderer.setAspectRatioMode(Qt::KeepAspectRatio);
    renderer.render(painter, target);
}

QString FormulaRenderer::bundleVersion() const
{
    QMutexLocker lock(&d->mutex);
    return d->version;
}

int FormulaRenderer::prerenderedCount() const
{
    QMutexLocker lock(&d->mutex);
    d->loadPrerenderedLocked();
    return d->prerendered.size();
}

FormulaStats FormulaRenderer::stats() const
{
    QMutexLocker lock(&d->mutex);
    FormulaStats s = d->stats;
    const auto e = d->engine->startInfo();
    s.engineStarts = e.first;
    s.engineStartMs = e.second;
    return s;
}

void FormulaRenderer::resetStats()
{
    QMutexLocker lock(&d->mutex);
    d->stats = {};
}

void FormulaRenderer::clearMemoryCache()
{
    QMutexLocker lock(&d->mutex);
    d->memory.clear();
}

void FormulaRenderer::setDiskCacheDir(const QString& dir)
{
    QMutexLocker lock(&d->mutex);
    d->diskDir = dir;
}

QString FormulaRenderer::diskCacheDir() const
{
    QMutexLocker lock(&d->mutex);
    return d->diskDir;
}

void FormulaRenderer::setPrerenderedEnabled(bool enabled)
{
    QMutexLocker lock(&d->mutex);
    d->prerenderedEnabled = enabled;
}

// ---------------------------------------------------------------- text object

namespace {

constexpr qreal kTexXHeight = 0.442;  // MathJax TeX font's x-height in em

// The em of the format's font on the layout's device (screen, or the printer
// while QTextDocument::print lays out its clone), in that device's pixels.
qreal emOnDevice(QTextDocument* doc, const QTextFormat& format)
{
    QFont font = format.toCharFormat().font().resolve(doc->defaultFont());
    const QPaintDevice* device = doc->documentLayout() ? doc->documentLayout()->paintDevice() : nullptr;
    qreal em = font.pixelSize() > 0 ? font.pixelSize() : QFontInfo(font).pixelSize();  // at the default device
    if (device) {
        const qreal here = QFontMetricsF(font).height();
        const qreal there = QFontMetricsF(font, const_cast<QPaintDevice*>(device)).height();
        if (here > 0 && there > 0) em *= there / here;
    }
    // Like MathJax in a browser (matchFontHeight), enlarge formulas next to a
    // font with a taller x-height than TeX's (0.442 em), within 20%.
    const qreal ex = QFontMetricsF(font).xHeight(),
                emHere = font.pixelSize() > 0 ? font.pixelSize() : QFontInfo(font).pixelSize();
    if (ex > 0 && emHere > 0) em *= std::clamp(ex / (kTexXHeight * emHere), 1.0, 1.2);
    return em > 0 ? em : Formula::kReferenceEmPx;
}

// Qt 6.4 gives an AlignMiddle inline object ascent (h + x/2)/2 and descent
// (h - x/2)/2 around the baseline, x being the xHeight of the format's font at
// the default device (QTextDocumentLayout::resizeInlineObject). Padding h so
// that ascent >= the formula's height above its baseline and descent >= its
// depth makes the line reserve room for both; drawObject then puts the
// formula's baseline on the line's baseline. (AlignNormal would sit the
// object's bottom on the baseline and reserve no depth.)
qreal halfXHeight(const QTextFormat& format)
{
    return QFontMetrics(format.toCharFormat().font()).xHeight() / 2.0;
}

struct InlineBox {
    qreal ascent;   // object top to baseline, as reserved by the layout
    qreal descent;  // baseline to object bottom
};

InlineBox inlineBox(const Formula& f, qreal em, qreal halfX)
{
    const qreal above = f.baselineForEm(em), below = std::max<qreal>(0, f.depthForEm(em));
    const qreal descent = std::max(below, above - halfX);
    return {descent + halfX, descent};
}

// The baseline of the text line holding the object at pos, in the painter's
// coordinates. Qt draws an AlignMiddle object centred in its line's height
// (measured: top = line top + (line height - object height) / 2), which gives
// the line's top from rect and, with the line's ascent, the baseline.
qreal baselineAt(QTextDocument* doc, int pos, const QRectF& rect, qreal fallbackAscent)
{
    const QTextBlock block = doc->findBlock(pos);
    const QTextLayout* layout = block.isValid() ? block.layout() : nullptr;
    if (!layout) return rect.top() + fallbackAscent;
    const QTextLine line = layout->lineForTextPosition(pos - block.position());
    if (!line.isValid()) return rect.top() + fallbackAscent;
    const qreal lineTop = rect.top() - (line.height() - rect.height()) / 2;
    return lineTop + line.ascent();
}

}  // namespace

FormulaTextObject::FormulaTextObject(QObject* parent, Mode mode) : QObject(parent), m_mode(mode)
{
    if (m_mode != Mode::Placeholder) return;
    // Formulas arrive one by one from the engine: re-lay out the document at
    // most every 150 ms rather than once per formula.
    m_relayout.setSingleShot(true);
    m_relayout.setInterval(150);
    connect(&m_relayout, &QTimer::timeout, this, [this] {
        if (auto* doc = qobject_cast<QTextDocument*>(this->parent()); doc && m_waitingForEngine) {
            m_waitingForEngine = false;
            doc->markContentsDirty(0, doc->characterCount());
        }
    });
    connect(
        &FormulaRenderer::instance(), &FormulaRenderer::formulaReady, this,
        [this] {
            if (m_waitingForEngine && !m_relayout.isActive()) m_relayout.start();
        },
        Qt::QueuedConnection);
}

FormulaTextObject* FormulaTextObject::registerOn(QTextDocument* doc, Mode mode)
{
    auto* handler = new FormulaTextObject(doc, mode);
    doc->documentLayout()->registerHandler(kObjectType, handler);
    return handler;
}

Formula FormulaTextObject::formulaFor(const QTextFormat& fmt)
{
    const QString tex = fmt.property(kTexProperty).toString();
    const bool display = fmt.property(kDisplayProperty).toBool();
    auto& renderer = FormulaRenderer::instance();
    if (m_mode == Mode::Wait) return renderer.render(tex, display);
    Formula f;
    if (renderer.lookup(tex, display, &f)) return f;
    renderer.prefetch({tex}, display);
    m_waitingForEngine = true;  // the document (this handler's parent) is re-laid out when it arrives
    // Placeholder: the TeX source, grey (not an error: ok stays true, no message).
    const qreal em = Formula::kReferenceEmPx;
    const QString text = tex.toHtmlEscaped();
    const QString svg =
        QStringLiteral(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\" "
            "data-baseline-px=\"%3\"><text x=\"0\" y=\"%3\" font-family=\"DejaVu Sans Mono\" font-size=\"%4\" "
            "fill=\"#888888\">%5</text></svg>")
            .arg(std::max<qreal>(em, 0.6 * 0.85 * em * tex.size()))
            .arg(1.2 * em)
            .arg(0.9 * em)
            .arg(0.85 * em)
            .arg(text);
    f = Formula::fromSvg(svg.toUtf8());
    return f;
}

QTextCharFormat FormulaTextObject::format(const QString& tex, bool display, const QTextCharFormat& base)
{
    QTextCharFormat f = base;
    f.setObjectType(kObjectType);
    f.setProperty(kTexProperty, tex);
    f.setProperty(kDisplayProperty, display);
    f.setVerticalAlignment(QTextCharFormat::AlignMiddle);  // see inlineBox()
    f.setToolTip(tex);
    return f;
}

void FormulaTextObject::insertInline(QTextCursor& cursor, const QString& tex)
{
    cursor.insertText(QString(QChar::ObjectReplacementCharacter), format(tex, false, cursor.charFormat()));
}

void FormulaTextObject::insertDisplay(QTextCursor& cursor, const QString& tex)
{
    const QTextBlockFormat previous = cursor.blockFormat();
    const QTextCharFormat chars = cursor.charFormat();
    QTextBlockFormat block = previous;
    block.setAlignment(Qt::AlignHCenter);
    block.setTopMargin(std::max<qreal>(previous.topMargin(), 6));
    block.setBottomMargin(std::max<qreal>(previous.bottomMargin(), 6));
    block.setTextIndent(0);
    block.setIndent(0);
    cursor.insertBlock(block, chars);
    cursor.insertText(QString(QChar::ObjectReplacementCharacter), format(tex, true, chars));
    cursor.insertBlock(previous, chars);
}

// The text format's own font, as the surrounding text is drawn with it.
QFont trailingFont(QTextDocument* doc, const QTextFormat& fmt)
{
    QFont font = fmt.toCharFormat().font().resolve(doc->defaultFont());
    if (const QPaintDevice* device = doc->documentLayout() ? doc->documentLayout()->paintDevice() : nullptr)
        font = QFont(font, device);
    return font;
}

// A typeset formula is paths (MathJax's glyphs), which a PDF reader cannot
// read. On a PDF, the formula in Unicode (θⱼ, 10⁶: util/tex_to_unicode.h) is
// written under it as invisible text, stretched to the formula's width, so
// that copying, searching and pdftotext give readable text. (Qt's PDF engine
// has no /ActualText or invisible text mode; a fully transparent pen keeps
// the text in the page's text layer and off the paper.)
void drawTextLayer(QPainter* painter, const QRectF& target, qreal baseline, QTextDocument* doc, const QTextFormat& fmt)
{
    if (!painter->paintEngine() || painter->paintEngine()->type() != QPaintEngine::Pdf) return;
    const QString text = util::mathToUnicode(fmt.stringProperty(FormulaTextObject::kTexProperty));
    if (text.isEmpty() || target.width() <= 0) return;
    const QFont font = trailingFont(doc, fmt);
    const qreal width = QFontMetricsF(font, painter->device()).horizontalAdvance(text);
    if (width <= 0) return;
    painter->save();
    painter->setFont(font);
    painter->setPen(QColor(0, 0, 0, 0));
    painter->translate(target.left(), baseline);
    painter->scale(target.width() / width, 1.0);
    painter->drawText(QPointF(0, 0), text);
    painter->restore();
}

qreal trailingWidth(QTextDocument* doc, const QTextFormat& fmt)
{
    const QString trailing = fmt.stringProperty(FormulaTextObject::kTrailingProperty);
    if (trailing.isEmpty()) return 0;
    const QPaintDevice* device = doc->documentLayout() ? doc->documentLayout()->paintDevice() : nullptr;
    const QFont font = fmt.toCharFormat().font().resolve(doc->defaultFont());
    return device ? QFontMetricsF(font, const_cast<QPaintDevice*>(device)).horizontalAdvance(trailing)
                  : QFontMetricsF(font).horizontalAdvance(trailing);
}

QSizeF FormulaTextObject::intrinsicSize(QTextDocument* doc, int, const QTextFormat& fmt)
{
    const Formula f = formulaFor(fmt);
    const qreal em = emOnDevice(doc, fmt);
    const QSizeF size = f.sizeForEm(em);
    const InlineBox box = inlineBox(f, em, halfXHeight(fmt));
    return {size.width() + trailingWidth(doc, fmt), box.ascent + box.descent};
}

void FormulaTextObject::drawObject(QPainter* painter, const QRectF& rect, QTextDocument* doc, int pos,
                                   const QTextFormat& fmt)
{
    const Formula f = formulaFor(fmt);
    const qreal em = emOnDevice(doc, fmt);
    const InlineBox box = inlineBox(f, em, halfXHeight(fmt));
    const QSizeF size = f.sizeForEm(em);
    const qreal baseline = baselineAt(doc, pos, rect, box.ascent);
    const QRectF target(rect.left(), baseline - f.baselineForEm(em), size.width(), size.height());
    const QTextCharFormat cf = fmt.toCharFormat();
    const QColor color = cf.foreground().style() != Qt::NoBrush ? cf.foreground().color() : painter->pen().color();
    FormulaRenderer::paint(painter, target, f, color);
    drawTextLayer(painter, target, baseline, doc, fmt);
    const QString trailing = fmt.stringProperty(kTrailingProperty);
    if (!trailing.isEmpty()) {
        painter->save();
        painter->setFont(trailingFont(doc, fmt));
        painter->setPen(color);
        painter->drawText(QPointF(rect.left() + size.width(), baseline), trailing);
        painter->restore();
    }
}

}  // namespace poslab::ui
