<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>poslab::ui::ChartPanel</name>
    <message>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <source>Save this chart as PNG, SVG or CSV</source>
        <translation>将此图表保存为 PNG、SVG 或 CSV</translation>
    </message>
    <message>
        <source>Save chart</source>
        <translation>保存图表</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>另存为 PNG…</translation>
    </message>
    <message>
        <source>Save as PNG</source>
        <translation>另存为 PNG</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Save as SVG…</source>
        <translation>另存为 SVG…</translation>
    </message>
    <message>
        <source>Save as SVG</source>
        <translation>另存为 SVG</translation>
    </message>
    <message>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>Save data as CSV…</source>
        <translation>将数据另存为 CSV…</translation>
    </message>
    <message>
        <source>Save data as CSV</source>
        <translation>将数据另存为 CSV</translation>
    </message>
    <message>
        <source>CSV file (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Reset view</source>
        <translation>重置视图</translation>
    </message>
    <message>
        <source>Reset chart view</source>
        <translation>重置图表视图</translation>
    </message>
    <message>
        <source>Chart error</source>
        <translation>图表错误</translation>
    </message>
    <message>
        <source>Heatmap: %1</source>
        <translation>热力图：%1</translation>
    </message>
    <message>
        <source>Bar chart: %1</source>
        <translation>柱状图：%1</translation>
    </message>
    <message>
        <source>Line chart: %1</source>
        <translation>折线图：%1</translation>
    </message>
    <message>
        <source>Table: %1</source>
        <translation>表格：%1</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>cannot encode the PNG image</source>
        <translation>无法编码 PNG 图像</translation>
    </message>
    <message>
        <source>%1 value(s) ≤ 0 not shown on the log axis</source>
        <translation>%1 个 ≤ 0 的值未在对数坐标轴上显示</translation>
    </message>
    <message>
        <source>%1 NaN/∞ value(s) not shown</source>
        <translation>%1 个 NaN/∞ 值未显示</translation>
    </message>
    <message>
        <source>bar charts use linear axes</source>
        <translation>柱状图使用线性坐标轴</translation>
    </message>
    <message>
        <source>… %1 more rows</source>
        <translation>… 另有 %1 行</translation>
    </message>
    <message>
        <source>series</source>
        <translation>序列</translation>
    </message>
    <message>
        <source>matrix</source>
        <translation>矩阵</translation>
    </message>
    <message>
        <source>table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>scalar</source>
        <translation>标量</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>a line chart needs a series</source>
        <translation>折线图需要一个序列</translation>
    </message>
    <message>
        <source>a heatmap needs a matrix</source>
        <translation>热力图需要一个矩阵</translation>
    </message>
    <message>
        <source>a bar chart needs a series or a table with a numeric column</source>
        <translation>柱状图需要一个序列，或一个含数值列的表格</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>the module gave no outputs</source>
        <translation>模块没有给出任何输出</translation>
    </message>
    <message>
        <source>no output of this run can be shown this way: %1</source>
        <translation>这次运行的输出都不能以这种方式显示：%1</translation>
    </message>
    <message>
        <source>unknown output &apos;%1&apos; (this run has: %2)</source>
        <translation>未知的输出“%1”（这次运行有：%2）</translation>
    </message>
    <message>
        <source>output &apos;%1&apos; is a %2: %3</source>
        <translation>输出“%1”是%2：%3</translation>
    </message>
    <message>
        <source>Undo zoom and pan (Esc, double-click). Drag a rectangle or Ctrl+wheel to zoom, middle-drag or arrow keys to pan.</source>
        <translation>撤销缩放和平移（Esc，双击）。拖出矩形或按住 Ctrl 滚动滚轮可缩放，按住中键拖动或用方向键可平移。</translation>
    </message>
</context>
<context>
    <name>poslab::ui::CopyableTableView</name>
    <message>
        <source>Data table</source>
        <translation>数据表</translation>
    </message>
</context>
<context>
    <name>poslab::ui::ExerciseWidget</name>
    <message>
        <source>Choose an answer first.</source>
        <translation>请先选择一个答案。</translation>
    </message>
    <message>
        <source>Modules cannot run here.</source>
        <translation>此处无法运行模块。</translation>
    </message>
    <message>
        <source>**Hint %1.** </source>
        <translation>**提示 %1：**</translation>
    </message>
    <message>
        <source>Hint %1</source>
        <translation>提示 %1</translation>
    </message>
    <message>
        <source>✓ Correct!</source>
        <translation>✓ 回答正确！</translation>
    </message>
    <message>
        <source>✗ Not quite. Try again, or take a hint.</source>
        <translation>✗ 不太对。再试一次，或者看看提示。</translation>
    </message>
    <message>
        <source>Running the module…</source>
        <translation>正在运行模块…</translation>
    </message>
    <message>
        <source>Feedback</source>
        <translation>反馈</translation>
    </message>
    <message>
        <source>Hint (%1/%2)</source>
        <translation>提示（%1/%2）</translation>
    </message>
    <message>
        <source>Hint</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>Exercise</source>
        <translation>练习</translation>
    </message>
    <message>
        <source>Exercise %1</source>
        <translation>练习 %1</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>Run the module with these values and check the condition</source>
        <translation>用这些值运行模块并检查条件</translation>
    </message>
    <message>
        <source>Check the answer (Enter in the answer field)</source>
        <translation>检查答案（在答案框中按 Enter）</translation>
    </message>
    <message>
        <source>Reveal the next hint</source>
        <translation>显示下一条提示</translation>
    </message>
    <message>
        <source>Show solution</source>
        <translation>显示解答</translation>
    </message>
    <message>
        <source>Show the worked solution</source>
        <translation>显示完整解答</translation>
    </message>
    <message>
        <source>Solution</source>
        <translation>解答</translation>
    </message>
    <message>
        <source>Your answer (a number)</source>
        <translation>你的答案（一个数）</translation>
    </message>
    <message>
        <source>Your answer</source>
        <translation>你的答案</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>答案</translation>
    </message>
    <message>
        <source>Your parameters</source>
        <translation>你的参数</translation>
    </message>
    <message>
        <source>Values that meet the condition: %1</source>
        <translation>满足条件的一组参数：%1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::FormulaRenderer</name>
    <message>
        <source>Empty formula</source>
        <translation>空公式</translation>
    </message>
</context>
<context>
    <name>poslab::ui::HeatmapChart</name>
    <message>
        <source>column</source>
        <translation>列</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>row %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>row %1 (%2)</source>
        <translation>第 %1 行（%2）</translation>
    </message>
    <message>
        <source>column %1</source>
        <translation>第 %1 列</translation>
    </message>
    <message>
        <source>column %1 (%2)</source>
        <translation>第 %1 列（%2）</translation>
    </message>
    <message>
        <source>%1, %2: %3</source>
        <translation>%1，%2：%3</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LessonView</name>
    <message>
        <source>Lesson text</source>
        <translation>课文</translation>
    </message>
    <message>
        <source>Step title</source>
        <translation>步骤标题</translation>
    </message>
    <message>
        <source>This block cannot be shown: %1
(%2, line %3)</source>
        <translation>此内容块无法显示：%1
（%2，第 %3 行）</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Chapter %1 · %2 · step %3 of %4</source>
        <translation>第 %1 章 · %2 · 第 %3 步，共 %4 步</translation>
    </message>
</context>
<context>
    <name>poslab::ui::MainWindow</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Your answers could not be saved: %1</source>
        <translation>无法保存你的答案：%1</translation>
    </message>
    <message>
        <source>Saved progress could not be read (%1); starting afresh.</source>
        <translation>无法读取已保存的进度（%1），将从头开始。</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Switch to English</source>
        <translation>切换到英文</translation>
    </message>
    <message>
        <source>Switch to Chinese</source>
        <translation>切换到中文</translation>
    </message>
    <message>
        <source>Show the course and the window in English</source>
        <translation>以英文显示课程和窗口</translation>
    </message>
    <message>
        <source>Show the course and the window in Chinese</source>
        <translation>以中文显示课程和窗口</translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <source>Export the current chapter or the whole course as a PDF report</source>
        <translation>将当前章节或整个课程导出为 PDF 报告</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Search the course</source>
        <translation>搜索课程</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Quit PosLab</source>
        <translation>退出 PosLab</translation>
    </message>
    <message>
        <source>&amp;About PosLab</source>
        <translation>关于 PosLab(&amp;A)</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Show or hide the table of contents</source>
        <translation>显示或隐藏目录</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>前往(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>Navigation</source>
        <translation>导航</translation>
    </message>
    <message>
        <source>Step counter</source>
        <translation>步骤计数</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程内容</translation>
    </message>
    <message>
        <source>No lessons found</source>
        <translation>未找到课程</translation>
    </message>
    <message>
        <source>PosLab found no chapters in %1 (language: %2).</source>
        <translation>PosLab 在 %1 中没有找到任何章节（语言：%2）。</translation>
    </message>
    <message>
        <source>Step %1 of %2 in chapter %3, “%4”</source>
        <translation>第 %3 章“%4”的第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>%1 — PosLab</source>
        <translation>%1 — PosLab</translation>
    </message>
    <message>
        <source>The link %1 does not lead to a chapter of this course.</source>
        <translation>链接 %1 并不指向本课程的章节。</translation>
    </message>
    <message>
        <source>About PosLab</source>
        <translation>关于 PosLab</translation>
    </message>
    <message>
        <source>&lt;h3&gt;PosLab %1&lt;/h3&gt;&lt;p&gt;A notebook that teaches positional encoding in Transformers: lessons in Chinese and English, live charts from C++ modules, exercises, PDF reports.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;PosLab %1&lt;/h3&gt;&lt;p&gt;讲解 Transformer 位置编码的交互式笔记本：中英文课程、由 C++ 模块实时生成的图表、练习以及 PDF 报告。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Export PDF</source>
        <translation>导出 PDF</translation>
    </message>
    <message>
        <source>The whole course</source>
        <translation>整个课程</translation>
    </message>
    <message>
        <source>Current chapter: %1. %2</source>
        <translation>当前章节：%1. %2</translation>
    </message>
    <message>
        <source>Current chapter</source>
        <translation>当前章节</translation>
    </message>
    <message>
        <source>Export:</source>
        <translation>导出：</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <source>Student name</source>
        <translation>学生姓名</translation>
    </message>
    <message>
        <source>&amp;Student name:</source>
        <translation>学生姓名(&amp;S)：</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Exporting %1…</source>
        <translation>正在导出 %1…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Export progress</source>
        <translation>导出进度</translation>
    </message>
    <message>
        <source>The export was cancelled.</source>
        <translation>导出已取消。</translation>
    </message>
    <message>
        <source>Exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>The PDF could not be written.

%1</source>
        <translation>无法写入 PDF。

%1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::MarkdownDocument</name>
    <message>
        <source>link not allowed: %1</source>
        <translation>不允许的链接：%1</translation>
    </message>
    <message>
        <source>image not allowed: %1</source>
        <translation>不允许的图片：%1</translation>
    </message>
    <message>
        <source>image missing: %1</source>
        <translation>图片缺失：%1</translation>
    </message>
    <message>
        <source>image unreadable: %1</source>
        <translation>图片无法读取：%1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::OutputTableModel</name>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>label</source>
        <translation>标签</translation>
    </message>
</context>
<context>
    <name>poslab::ui::ParamPanel</name>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Restore the values written in the lesson</source>
        <translation>恢复课程中给定的数值</translation>
    </message>
    <message>
        <source>Reset parameters</source>
        <translation>重置参数</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
</context>
<context>
    <name>poslab::ui::RunBlockCard</name>
    <message>
        <source>Figure caption</source>
        <translation>图注</translation>
    </message>
    <message>
        <source>Modules cannot run here.</source>
        <translation>此处无法运行模块。</translation>
    </message>
    <message>
        <source>Chart of %1</source>
        <translation>%1 的图表</translation>
    </message>
    <message>
        <source>%1 could not run: %2
(%3, line %4)</source>
        <translation>%1 无法运行：%2
（%3，第 %4 行）</translation>
    </message>
    <message>
        <source>Running %1…</source>
        <translation>正在运行 %1…</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Running %1</source>
        <translation>正在运行 %1</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Module %1</source>
        <translation>模块 %1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::SearchPanel</name>
    <message>
        <source>%1 › %2
%3</source>
        <translation>%1 › %2
%3</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es) in this step</source>
        <translation>
            <numerusform>此步骤中有 %n 处匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>没有匹配</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) found</source>
        <translation>
            <numerusform>找到 %n 个步骤</numerusform>
        </translation>
    </message>
    <message>
        <source>Search the course (Ctrl+F)</source>
        <translation>搜索课程（Ctrl+F）</translation>
    </message>
    <message>
        <source>Search the course</source>
        <translation>搜索课程</translation>
    </message>
    <message>
        <source>Type to list matching steps; Enter opens the first; Esc clears</source>
        <translation>输入文字以列出匹配的步骤；Enter 打开第一个；Esc 清除</translation>
    </message>
    <message>
        <source>Search results</source>
        <translation>搜索结果</translation>
    </message>
</context>
<context>
    <name>poslab::ui::TocPanel</name>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message numerus="yes">
        <source>%1
%2
About %n minute(s)</source>
        <translation>
            <numerusform>%1
%2
约 %n 分钟</numerusform>
        </translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <source>Steps visited</source>
        <translation>已访问的步骤</translation>
    </message>
    <message>
        <source>Visited</source>
        <translation>已访问</translation>
    </message>
    <message>
        <source>Table of contents</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Chapters and steps; Enter or a click opens a step</source>
        <translation>章节与步骤；按 Enter 或单击打开步骤</translation>
    </message>
    <message>
        <source>✎%1/%2</source>
        <translation>✎%1/%2</translation>
    </message>
    <message>
        <source>Exercises solved: %1 of %2</source>
        <translation>已解练习：%1 / %2</translation>
    </message>
</context>
</TS>
