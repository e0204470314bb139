// SPDX-License-Identifier: Apache-2.0
// report_assembly.cpp — the report's pieces put together with qpdf
// (report_assembly.h). The PDF structures written here are those of the
// PDF 1.7 reference (ISO 32000-1): document outline §12.3.3, link
// annotations and destinations §12.5.6.5 and §12.3.2, page labels §12.4.2,
// the document information dictionary §14.3.3.
#include "ui/report/report_assembly.h"

#include <qpdf/Buffer.hh>
#include <qpdf/QPDF.hh>
#include <qpdf/QPDFObjectHandle.hh>
#include <qpdf/QPDFPageDocumentHelper.hh>
#include <qpdf/QPDFPageObjectHelper.hh>
#include <qpdf/QPDFWriter.hh>

#include <QUrl>

#include <exception>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace poslab::ui::report {

namespace {

QPDFObjectHandle text(const QString& s)
{
    return QPDFObjectHandle::newUnicodeString(s.toStdString());
}

QPDFObjectHandle name(const char* n)
{
    return QPDFObjectHandle::newName(n);
}

// "D:YYYYMMDDHHmmSSZ" (§7.9.4).
QPDFObjectHandle pdfDate(const QDateTime& t)
{
    return QPDFObjectHandle::newString(t.toUTC().toString(QStringLiteral("'D:'yyyyMMddHHmmss'Z'")).toStdString());
}

double pageHeight(QPDFObjectHandle page)
{
    QPDFObjectHandle box = page.getKey("/MediaBox");
    if (box.isArray() && box.getArrayNItems() == 4) return box.getArrayItem(3).getNumericValue();
    return 842;  // A4
}

// [page /XYZ left top null]: the page at that height, the zoom kept.
QPDFObjectHandle destination(const std::vector<QPDFObjectHandle>& pages, const PdfTarget& t)
{
    const size_t i = size_t(std::clamp<int>(t.page, 0, int(pages.size()) - 1));
    QPDFObjectHandle d = QPDFObjectHandle::newArray();
    d.appendItem(pages[i]);
    d.appendItem(name("/XYZ"));
    d.appendItem(QPDFObjectHandle::newNull());
    d.appendItem(QPDFObjectHandle::newReal(pageHeight(pages[i]) - std::max<qreal>(0, t.top - 6), 2));
    d.appendItem(QPDFObjectHandle::newNull());
    return d;
}

// Writes `items` as the children of `parent`; returns how many entries are
// open below it (all are: a reader sees chapters and steps at once).
int writeOutline(QPDF& pdf, const std::vector<QPDFObjectHandle>& pages, QPDFObjectHandle parent,
                 const QList<OutlineItem>& items)
{
    std::vector<QPDFObjectHandle> made;
    int count = 0;
    for (const OutlineItem& item : items) {
        QPDFObjectHandle o = pdf.makeIndirectObject(QPDFObjectHandle::newDictionary());
        o.replaceKey("/Title", text(item.title));
        o.replaceKey("/Parent", parent);
        o.replaceKey("/Dest", destination(pages, item.target));
        if (!item.children.isEmpty()) {
            const int below = writeOutline(pdf, pages, o, item.children);
            o.replaceKey("/Count", QPDFObjectHandle::newInteger(below));
            count += below;
        }
        if (!made.empty()) {
            made.back().replaceKey("/Next", o);
            o.replaceKey("/Prev", made.back());
        }
        made.push_back(o);
        ++count;
    }
    if (!made.empty()) {
        parent.replaceKey("/First", made.front());
        parent.replaceKey("/Last", made.back());
    }
    return count;
}

QPDFObjectHandle linkAnnotation(QPDF& pdf, const std::vector<QPDFObjectHandle>& pages, const PageLink& link)
{
    const double h = pageHeight(pages[size_t(link.page)]);
    QPDFObjectHandle rect = QPDFObjectHandle::newArray();
    rect.appendItem(QPDFObjectHandle::newReal(link.rect.left(), 2));
    rect.appendItem(QPDFObjectHandle::newReal(h - link.rect.bottom(), 2));
    rect.appendItem(QPDFObjectHandle::newReal(link.rect.right(), 2));
    rect.appendItem(QPDFObjectHandle::newReal(h - link.rect.top(), 2));
    QPDFObjectHandle border = QPDFObjectHandle::newArray();
    for (int i = 0; i < 3; ++i) border.appendItem(QPDFObjectHandle::newInteger(0));
    QPDFObjectHandle a = pdf.makeIndirectObject(QPDFObjectHandle::newDictionary());
    a.replaceKey("/Type", name("/Annot"));
    a.replaceKey("/Subtype", name("/Link"));
    a.replaceKey("/Rect", rect);
    a.replaceKey("/Border", border);
    a.replaceKey("/Dest", destination(pages, link.target));
    return a;
}

bool isWebLink(const QString& uri)
{
    const QString scheme = QUrl(uri).scheme().toLower();
    return scheme == u"http" || scheme == u"https" || scheme == u"mailto";
}

// Web links stay; internal references become jumps or lose their link.
void fixLinks(QPDF& pdf, const std::vector<QPDFObjectHandle>& pages, const Assembly& assembly, AssemblyReport* report)
{
    for (QPDFObjectHandle page : pages) {
        QPDFObjectHandle annots = page.getKey("/Annots");
        if (!annots.isArray()) continue;
        QPDFObjectHandle kept = QPDFObjectHandle::newArray();
        for (QPDFObjectHandle a : annots.aitems()) {
            QPDFObjectHandle action = a.getKey("/A");
            const bool uriLink = a.getKey("/Subtype").isNameAndEquals("/Link") && action.isDictionary() &&
                                 action.getKey("/S").isNameAndEquals("/URI") && action.getKey("/URI").isString();
            if (!uriLink) {
                kept.appendItem(a);
                continue;
            }
            const QString uri = QString::fromStdString(action.getKey("/URI").getUTF8Value());
            if (isWebLink(uri)) {
                QPDFObjectHandle r = a.getKey("/Rect");
                const bool clickable = r.isArray() && r.getArrayNItems() == 4 &&
                                       r.getArrayItem(2).getNumericValue() > r.getArrayItem(0).getNumericValue() &&
                                       r.getArrayItem(3).getNumericValue() > r.getArrayItem(1).getNumericValue();
                if (clickable)
                    ++report->webLinks;
                else
                    report->unclickableUrls.append(uri);
                kept.appendItem(a);
                continue;
            }
            const std::optional<PdfTarget> target = assembly.resolve ? assembly.resolve(uri) : std::nullopt;
            if (!target) {
                report->unresolved.append(uri);
                continue;
            }
            a.removeKey("/A");
            a.replaceKey("/Dest", destination(pages, *target));
            ++report->references;
            kept.appendItem(a);
        }
        page.replaceKey("/Annots", kept);
    }
}

// A font subset's name starts with a tag of six capitals ("QDCAAA+DejaVuSans",
// §9.6.4); Qt makes it from the order its hash tables hand fonts over, which
// changes from run to run. The tags are made again here, in the order the
// pages use the fonts, so the same pieces give the same bytes.
void retagName(QPDFObjectHandle dict, const char* key, const std::string& tag)
{
    if (!dict.isDictionary()) return;
    QPDFObjectHandle n = dict.getKey(key);
    if (!n.isName()) return;
    const std::string name = n.getName();  // "/QDCAAA+DejaVuSans"
    if (name.size() < 8 || name[7] != '+') return;
    dict.replaceKey(key, QPDFObjectHandle::newName("/" + tag + name.substr(7)));
}

void retagFontSubsets(const std::vector<QPDFObjectHandle>& pages)
{
    std::set<QPDFObjGen> seen;
    int next = 0;
    for (QPDFObjectHandle page : pages) {
        QPDFObjectHandle fonts = page.getKey("/Resources").getKey("/Font");
        if (!fonts.isDictionary()) continue;
        for (const std::string& key : fonts.getKeys()) {
            QPDFObjectHandle font = fonts.getKey(key);
            if (!font.isDictionary() || !seen.insert(font.getObjGen()).second) continue;
            std::string tag(6, 'A');
            for (int i = 5, n = next++; i >= 0 && n > 0; --i, n /= 26) tag[size_t(i)] = char('A' + n % 26);
            retagName(font, "/BaseFont", tag);
            if (font.hasKey("/FontDescriptor")) retagName(font.getKey("/FontDescriptor"), "/FontName", tag);
            QPDFObjectHandle descendants = font.getKey("/DescendantFonts");
            if (!descendants.isArray()) continue;
            for (QPDFObjectHandle d : descendants.aitems()) {
                retagName(d, "/BaseFont", tag);
                if (d.isDictionary() && d.hasKey("/FontDescriptor"))
                    retagName(d.getKey("/FontDescriptor"), "/FontName", tag);
            }
        }
    }
}

void addLinks(QPDF& pdf, const std::vector<QPDFObjectHandle>& pages, const QList<PageLink>& links)
{
    for (const PageLink& link : links) {
        if (link.page < 0 || link.page >= int(pages.size())) continue;
        QPDFObjectHandle page = pages[size_t(link.page)];
        QPDFObjectHandle annots = page.getKey("/Annots");
        if (!annots.isArray()) {
            annots = QPDFObjectHandle::newArray();
            page.replaceKey("/Annots", annots);
        }
        annots.appendItem(linkAnnotation(pdf, pages, link));
    }
}

// The first page labelled `first`, the others by their printed number (§12.4.2).
void addPageLabels(QPDF& pdf, const QString& first, int pageCount)
{
    QPDFObjectHandle nums = QPDFObjectHandle::newArray();
    QPDFObjectHandle title = QPDFObjectHandle::newDictionary();
    title.replaceKey("/P", text(first));
    nums.appendItem(QPDFObjectHandle::newInteger(0));
    nums.appendItem(title);
    if (pageCount > 1) {
        QPDFObjectHandle rest = QPDFObjectHandle::newDictionary();
        rest.replaceKey("/S", name("/D"));
        rest.replaceKey("/St", QPDFObjectHandle::newInteger(2));
        nums.appendItem(QPDFObjectHandle::newInteger(1));
        nums.appendItem(rest);
    }
    QPDFObjectHandle labels = QPDFObjectHandle::newDictionary();
    labels.replaceKey("/Nums", nums);
    pdf.getRoot().replaceKey("/PageLabels", labels);
}

void addInfo(QPDF& pdf, const PdfInfo& info)
{
    QPDFObjectHandle d = pdf.makeIndirectObject(QPDFObjectHandle::newDictionary());
    const std::pair<const char*, const QString*> fields[] = {{"/Title", &info.title},
                                                             {"/Author", &info.author},
                                                             {"/Subject", &info.subject},
                                                             {"/Keywords", &info.keywords},
                                                             {"/Creator", &info.creator}};
    for (const auto& [key, value] : fields)
        if (!value->isEmpty()) d.replaceKey(key, text(*value));
    d.replaceKey("/Producer", QPDFObjectHandle::newString("PosLab (Qt " QT_VERSION_STR ", qpdf)"));
    if (info.date.isValid()) {
        d.replaceKey("/CreationDate", pdfDate(info.date));
        d.replaceKey("/ModDate", pdfDate(info.date));
    }
    pdf.getTrailer().replaceKey("/Info", d);
    QPDFObjectHandle root = pdf.getRoot();
    if (!info.lang.isEmpty()) root.replaceKey("/Lang", text(info.lang));
    root.replaceKey("/PageMode", name("/UseOutlines"));
    QPDFObjectHandle prefs = QPDFObjectHandle::newDictionary();
    prefs.replaceKey("/DisplayDocTitle", QPDFObjectHandle::newBool(true));
    root.replaceKey("/ViewerPreferences", prefs);
}

}  // namespace

QByteArray assemblePdf(const Assembly& assembly, AssemblyReport* report, QString* error)
{
    AssemblyReport ignored;
    if (!report) report = &ignored;
    try {
        // The pieces stay open until the output is written: qpdf copies their
        // streams' data only then.
        std::vector<std::unique_ptr<QPDF>> pieces;
        QPDF out;
        out.emptyPDF();
        QPDFPageDocumentHelper outPages(out);
        for (const QByteArray& bytes : assembly.pieces) {
            auto piece = std::make_unique<QPDF>();
            piece->setSuppressWarnings(true);
            piece->processMemoryFile("report piece", bytes.constData(), size_t(bytes.size()));
            for (QPDFPageObjectHelper& page : QPDFPageDocumentHelper(*piece).getAllPages())
                outPages.addPage(page, false);
            pieces.push_back(std::move(piece));
        }
        std::vector<QPDFObjectHandle> pages;
        for (QPDFPageObjectHelper& page : outPages.getAllPages()) pages.push_back(page.getObjectHandle());
        if (pages.empty()) throw std::runtime_error("no pages");

        retagFontSubsets(pages);
        fixLinks(out, pages, assembly, report);
        addLinks(out, pages, assembly.links);
        if (!assembly.outline.isEmpty()) {
            QPDFObjectHandle outlines = out.makeIndirectObject(QPDFObjectHandle::newDictionary());
            outlines.replaceKey("/Type", name("/Outlines"));
            outlines.replaceKey("/Count",
                                QPDFObjectHandle::newInteger(writeOutline(out, pages, outlines, assembly.outline)));
            out.getRoot().replaceKey("/Outlines", outlines);
        }
        addPageLabels(out, assembly.info.firstPageLabel, int(pages.size()));
        addInfo(out, assembly.info);

        QPDFWriter w(out);
        w.setOutputMemory();
        w.setDeterministicID(true);  // the /ID from the content: same pieces, same bytes
        w.setObjectStreamMode(qpdf_o_generate);
        // Qt compressed the pieces' streams already: copied as they are, not inflated and deflated again.
        w.setDecodeLevel(qpdf_dl_none);
        w.write();
        std::shared_ptr<Buffer> buffer = w.getBufferSharedPointer();
        return QByteArray(reinterpret_cast<const char*>(buffer->getBuffer()), qsizetype(buffer->getSize()));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromLocal8Bit(e.what());
        return {};
    }
}

}  // namespace poslab::ui::report
