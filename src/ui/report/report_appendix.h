// SPDX-License-Identifier: Apache-2.0
// report_appendix.h — the appendix of the course report.
//
// On a new page: a table of every module run the report made (the figure or
// exercise it belongs to, module and version, the `poslab run` command that
// reproduces it, the time it took); the stored training run the chapters'
// `lab.` run blocks read (where it came from, its command, corpus, machine
// and file), or plainly that there is none and how to make one; and the
// versions of the software (PosLab, Qt, OpenBLAS, MathJax, system, fonts,
// course folder). Its heading goes into the contents.
//
// Internal to src/ui/report.
#pragma once

#include <QList>
#include <QPair>
#include <QString>

#include <vector>

namespace poslab::ui::report {

class ReportContents;
class ReportDocument;
struct RunRecord;

// The appendix's title, in the report's language.
QString appendixTitle(const QString& lang);

// `exercises`: each exercise's number in the report and its id ("Exercise 2.3", "sin-longest-wavelength").
void writeAppendix(ReportDocument& doc, ReportContents& contents, const std::vector<RunRecord>& runs,
                   const QList<QPair<QString, QString>>& exercises);

}  // namespace poslab::ui::report
