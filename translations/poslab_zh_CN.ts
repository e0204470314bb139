<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>poslab::ui</name>
    <message>
        <source>%1 value(s) ≤ 0 not shown on the log axis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 NaN/∞ value(s) not shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bar charts use linear axes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… %1 more rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>series</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>matrix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>scalar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a line chart needs a series</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a heatmap needs a matrix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a bar chart needs a series or a table with a numeric column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the module gave no outputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no output of this run can be shown this way: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown output &apos;%1&apos; (this run has: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output &apos;%1&apos; is a %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot encode the PNG image</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::ChartPanel</name>
    <message>
        <source>Chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save this chart as PNG, SVG or CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as PNG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as SVG…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as SVG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save data as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save data as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo zoom and pan (Esc, double-click)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset chart view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chart error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Heatmap: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bar chart: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line chart: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Table: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot encode the PNG image</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::CopyableTableView</name>
    <message>
        <source>Data table</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::ExerciseWidget</name>
    <message>
        <source>Choose an answer first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Modules cannot run here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>**Hint %1.** </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hint %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✓ Correct!</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✗ Not quite. Try again, or take a hint.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running the module…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hint (%1/%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exercise</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exercise %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the module with these values and check the condition</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the answer (Enter in the answer field)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reveal the next hint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show solution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the worked solution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Solution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your answer (a number)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your parameters</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::FormulaRenderer</name>
    <message>
        <source>Empty formula</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::HeatmapChart</name>
    <message>
        <source>column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>row %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>row %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>column %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>column %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::LessonView</name>
    <message>
        <source>Lesson text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This block cannot be shown: %1
(%2, line %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::MainWindow</name>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your answers could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved progress could not be read (%1); starting afresh.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch to English</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch to Chinese</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the course and the window in English</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the course and the window in Chinese</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the current chapter or the whole course as a PDF report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the course</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit PosLab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About PosLab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide the table of contents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Navigation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step counter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No lessons found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PosLab found no chapters in %1 (language: %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2 in chapter %3, “%4”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — PosLab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The link %1 does not lead to a chapter of this course.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About PosLab</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;PosLab %1&lt;/h3&gt;&lt;p&gt;A notebook that teaches positional encoding in Transformers: lessons in Chinese and English, live charts from C++ modules, exercises, PDF reports.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::MarkdownDocument</name>
    <message>
        <source>link not allowed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image not allowed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image missing: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image unreadable: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::OutputTableModel</name>
    <message>
        <source>name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::ParamPanel</name>
    <message>
        <source>Reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore the values written in the lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::RunBlockCard</name>
    <message>
        <source>Figure caption</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Modules cannot run here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chart of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not run: %2
(%3, line %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::SearchPanel</name>
    <message>
        <source>%1 › %2
%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n match(es) in this step</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>No matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) found</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Search the course (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the course</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type to list matching steps; Enter opens the first; Esc clears</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search results</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>poslab::ui::TocPanel</name>
    <message>
        <source>%1. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1
%2
About %n minute(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1/%2 solved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps visited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Visited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exercises solved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Table of contents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chapters and steps; Enter or a click opens a step</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
