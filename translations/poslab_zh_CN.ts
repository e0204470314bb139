<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>poslab::ui::Appearance</name>
    <message>
        <location filename="../src/ui/window/appearance.cpp" line="+242"/>
        <source>Actual Size (now %1 %)</source>
        <translation>实际大小（当前 %1%）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Larger Text</source>
        <translation>放大文字</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Smaller Text</source>
        <translation>缩小文字</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>As the Desktop</source>
        <translation>跟随桌面</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reduce Motion</source>
        <translation>减少动态效果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Charts with a play control change only when you step them</source>
        <translation>带播放控件的图只在你逐帧操作时才变化</translation>
    </message>
</context>
<context>
    <name>poslab::ui::ArrowKeyGuide</name>
    <message>
        <location filename="../src/ui/window/arrow_key_guide.cpp" line="+40"/>
        <location line="+1"/>
        <source>Back to the Page</source>
        <translation>回到页面</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Give the keyboard back to the page, so that ←/→ step through the lesson</source>
        <translation>把键盘交还给页面，这样 ←/→ 又能逐步翻阅课程</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>←/→ now work inside this control. Press Esc to step through the lesson with them again.</source>
        <translation>←/→ 现在作用于这个控件。按 Esc 即可重新用它们逐步翻阅课程。</translation>
    </message>
</context>
<context>
    <name>poslab::ui::AssignmentBanner</name>
    <message>
        <location filename="../src/ui/classroom/assignment_banner.cpp" line="+88"/>
        <source>Assignment: %1</source>
        <translation>作业：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Student: %1</source>
        <translation>学生：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>due %1 — overdue</source>
        <translation>截止 %1 —— 已过期</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>due %1</source>
        <translation>截止 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no due date</source>
        <translation>无截止时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 of %2 answered</source>
        <translation>已答 %1 / %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>⚠ Your latest answers could not be saved: %1. They stay in this window, the draft saved before is unchanged, and saving is tried again with your next change.</source>
        <translation>⚠ 你最新的答案未能保存：%1。答案仍保留在窗口里，之前保存的草稿没有改动；你下次修改时会再次尝试保存。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Assignment</source>
        <translation>作业</translation>
    </message>
</context>
<context>
    <name>poslab::ui::AssignmentController</name>
    <message>
        <location filename="../src/ui/window/assignment_controller.cpp" line="+37"/>
        <location line="+10"/>
        <source>Open Assignment</source>
        <translation>打开作业</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>PosLab assignments (*%1);;All files (*)</source>
        <translation>PosLab 作业 (*%1);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>This assignment cannot be opened.

%1</source>
        <translation>无法打开这份作业。

%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Your Name</source>
        <translation>你的姓名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Assignment “%1”.
Your name, as your teacher should see it on your answers:</source>
        <translation>作业“%1”。
请输入你的姓名（老师会在你的答卷上看到它）：</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Assignment “%1” opened; your answers are saved as you work.</source>
        <translation>已打开作业“%1”；作答时答案会随时保存。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Your answers could not be saved: %1</source>
        <translation>无法保存你的答案：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your answers are saved again.</source>
        <translation>你的答案已重新保存。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Your earlier answers to this assignment could not be used: %1.</source>
        <translation>你之前为这份作业保存的答案无法使用：%1。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your earlier answers to this assignment could not be used: %1. They were kept as %2; you start again here.</source>
        <translation>你之前为这份作业保存的答案无法使用：%1。原文件已保留为 %2；你将从头开始作答。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Answers Not Saved</source>
        <translation>答案未保存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your latest answers could not be saved:
%1

If you leave now, what you changed since the last successful save is lost. Leave anyway?</source>
        <translation>你最新的答案未能保存：
%1

如果现在离开，上次成功保存之后的改动将会丢失。仍要离开吗？</translation>
    </message>
    <message>
        <location line="+20"/>
        <location line="+16"/>
        <location line="+15"/>
        <location line="+8"/>
        <source>Submit Answers</source>
        <translation>提交答案</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>PosLab answers (*%1)</source>
        <translation>PosLab 答卷 (*%1)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>You submitted to %1 before; submitting again replaces that file.</source>
        <translation>你之前已提交到 %1；再次提交会替换这个文件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 exists already and will be replaced.</source>
        <translation>%1 已经存在，将被替换。</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n exercise(s) have no answer yet.</source>
        <translation>
            <numerusform>还有 %n 道练习没有作答。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Submit anyway?</source>
        <translation>仍要提交吗？</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Your answers could not be submitted: %1</source>
        <translation>无法提交你的答案：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your answers could not be submitted.

%1

They are still saved in PosLab; try another folder.</source>
        <translation>无法提交你的答案。

%1

答案仍保存在 PosLab 中；请换一个文件夹再试。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Answers submitted to %1</source>
        <translation>答案已提交到 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your answers (%1 of %2 exercises answered) are saved in
%3

Hand this file to your teacher. You can keep working and submit again later.</source>
        <translation>你的答案（%2 道练习中已答 %1 道）已保存在
%3

请把这个文件交给老师。你也可以继续作答，稍后再次提交。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Assignment saved to %1</source>
        <translation>作业已保存到 %1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::AssignmentDialog</name>
    <message>
        <location filename="../src/ui/classroom/assignment_dialog.cpp" line="+52"/>
        <location line="+235"/>
        <source>New Assignment</source>
        <translation>新建作业</translation>
    </message>
    <message>
        <location line="-219"/>
        <source>e.g. Week 3: RoPE</source>
        <translation>例如：第 3 周：RoPE</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Due by</source>
        <translation>截止于</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Due date</source>
        <translation>截止时间</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Due date:</source>
        <translation>截止时间：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Chapters</source>
        <translation>章节</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+85"/>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <location line="-83"/>
        <source>This chapter has no exercises.</source>
        <translation>这一章没有练习。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Exercises of the checked chapters:</source>
        <translation>所选章节的练习：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Exercises</source>
        <translation>练习</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Save to</source>
        <translation>保存到</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Save to:</source>
        <translation>保存到(&amp;S)：</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>%1 — %2</source>
        <translation>%1 —— %2</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Save Assignment</source>
        <translation>保存作业</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PosLab assignments (*%1)</source>
        <translation>PosLab 作业 (*%1)</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Choose where to save the assignment.</source>
        <translation>请选择作业的保存位置。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Check at least one exercise.</source>
        <translation>请至少勾选一道练习。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The assignment could not be made: %1.</source>
        <translation>无法生成作业：%1。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The assignment could not be saved: %1.</source>
        <translation>无法保存作业：%1。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 exists already. Replace it?</source>
        <translation>%1 已经存在。要替换它吗？</translation>
    </message>
</context>
<context>
    <name>poslab::ui::AssignmentSession</name>
    <message>
        <location filename="../src/ui/classroom/assignment_session.cpp" line="+239"/>
        <source>Chapter %1 (not in the course on this computer)</source>
        <translation>第 %1 章（本机的课程中没有这一章）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>More exercises of this assignment</source>
        <translation>本作业的其他练习</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Exercises</source>
        <translation>练习</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This chapter is not in the course installed here, so its exercises are shown without the lesson around them.</source>
        <translation>本机安装的课程中没有这一章，所以这里只显示它的练习，没有配套的课文。</translation>
    </message>
</context>
<context>
    <name>poslab::ui::ChartPanel</name>
    <message>
        <location filename="../src/ui/charts/chart_view.cpp" line="+325"/>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Save as…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save this chart as PNG, SVG or CSV</source>
        <translation>将此图表保存为 PNG、SVG 或 CSV</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save chart</source>
        <translation>保存图表</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Save as PNG…</source>
        <translation>另存为 PNG…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save as PNG</source>
        <translation>另存为 PNG</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save as SVG…</source>
        <translation>另存为 SVG…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save as SVG</source>
        <translation>另存为 SVG</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>SVG image (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save data as CSV…</source>
        <translation>将数据另存为 CSV…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save data as CSV</source>
        <translation>将数据另存为 CSV</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CSV file (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+116"/>
        <source>Reset view</source>
        <translation>重置视图</translation>
    </message>
    <message>
        <location line="-113"/>
        <source>Reset chart view</source>
        <translation>重置图表视图</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>View as Table</source>
        <translation>以表格查看</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the chart&apos;s numbers as a table (and back)</source>
        <translation>把图中的数字显示为表格（再点一次回到图）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Lock Colours</source>
        <translation>锁定颜色</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keep the colour scale as it is now, so maps after a change use the same colours for the same values</source>
        <translation>保持现在的颜色刻度：改了设置以后，同样的数值仍是同样的颜色，前后的图可以直接比较</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Chart error</source>
        <translation>图表错误</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Heatmap: %1</source>
        <translation>热力图：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bar chart: %1</source>
        <translation>柱状图：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Line chart: %1</source>
        <translation>折线图：%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Table: %1</source>
        <translation>表格：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+193"/>
        <location line="+80"/>
        <source>cannot encode the PNG image</source>
        <translation>无法编码 PNG 图像</translation>
    </message>
    <message>
        <location filename="../src/ui/charts/chart_parts.cpp" line="+524"/>
        <source>%1 value(s) ≤ 0 not shown on the log axis</source>
        <translation>%1 个 ≤ 0 的值未在对数坐标轴上显示</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 NaN/∞ value(s) not shown</source>
        <translation>%1 个 NaN/∞ 值未显示</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>bar charts use linear axes</source>
        <translation>柱状图使用线性坐标轴</translation>
    </message>
    <message>
        <location filename="../src/ui/charts/print_table.cpp" line="+227"/>
        <source>… %1 more rows</source>
        <translation>… 另有 %1 行</translation>
    </message>
    <message>
        <location filename="../src/ui/charts/chart_view.cpp" line="-728"/>
        <source>series</source>
        <translation>序列</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>matrix</source>
        <translation>矩阵</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>table</source>
        <translation>表格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>scalar</source>
        <translation>标量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>a line chart needs a series</source>
        <translation>折线图需要一个序列</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a heatmap needs a matrix</source>
        <translation>热力图需要一个矩阵</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a clock needs a series or a matrix of angles</source>
        <translation>钟面图需要角度的序列或矩阵</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a bar chart needs a series or a table with a numeric column</source>
        <translation>柱状图需要一个序列，或一个含数值列的表格</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+157"/>
        <source>the module gave no outputs</source>
        <translation>模块没有给出任何输出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no output of this run can be shown this way: %1</source>
        <translation>这次运行的输出都不能以这种方式显示：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>unknown output &apos;%1&apos; (this run has: %2)</source>
        <translation>未知的输出“%1”（这次运行有：%2）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>output &apos;%1&apos; is a %2: %3</source>
        <translation>输出“%1”是%2：%3</translation>
    </message>
    <message>
        <location line="+119"/>
        <source>Undo zoom and pan (Esc, double-click). Drag a rectangle or Ctrl+wheel to zoom, middle-drag or arrow keys to pan.</source>
        <translation>撤销缩放和平移（Esc，双击）。拖出矩形或按住 Ctrl 滚动滚轮可缩放，按住中键拖动或用方向键可平移。</translation>
    </message>
    <message>
        <location filename="../src/ui/charts/chart_as_table.cpp" line="+58"/>
        <source>row \ column</source>
        <translation>行 \ 列</translation>
    </message>
</context>
<context>
    <name>poslab::ui::ClockChart</name>
    <message>
        <location filename="../src/ui/charts/clock_chart.cpp" line="+276"/>
        <source>long tick: 0 rad; angles grow ↺</source>
        <translation>长刻度为 0 弧度；角度沿 ↺ 方向增大</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Δ = %1 rad</source>
        <translation>Δ = %1 弧度</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1: %2 rad (%3)</source>
        <translation>%1：%2 弧度（%3）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 − %2: %3 rad (%4)</source>
        <translation>%1 − %2：%3 rad（%4）</translation>
    </message>
</context>
<context>
    <name>poslab::ui::CopyableTableView</name>
    <message>
        <location filename="../src/ui/charts/output_table.cpp" line="+164"/>
        <source>Data table</source>
        <translation>数据表</translation>
    </message>
</context>
<context>
    <name>poslab::ui::CourseNavigator</name>
    <message>
        <location filename="../src/ui/window/course_navigator.cpp" line="+94"/>
        <source>This chapter cannot be read as it is</source>
        <translation>这一章现在无法读取</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The Problems panel says why. The chapter is shown again, at the same step, as soon as its file is fixed.</source>
        <translation>原因见“问题”面板。文件一修好，这一章就会重新显示，并回到同一步。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>No lessons found</source>
        <translation>未找到课程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PosLab found no chapters in %1 (language: %2).</source>
        <translation>PosLab 在 %1 中没有找到任何章节（语言：%2）。</translation>
    </message>
</context>
<context>
    <name>poslab::ui::ExerciseInput</name>
    <message>
        <location filename="../src/ui/notebook/exercise_inputs.cpp" line="+70"/>
        <source>Your answer (a number)</source>
        <translation>你的答案（一个数）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your answer</source>
        <translation>你的答案</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Answer</source>
        <translation>答案</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Choose an answer first.</source>
        <translation>请先选择一个答案。</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Your parameters</source>
        <translation>你的参数</translation>
    </message>
</context>
<context>
    <name>poslab::ui::ExerciseWidget</name>
    <message>
        <location filename="../src/ui/notebook/exercise_widget.cpp" line="+257"/>
        <source>Modules cannot run here.</source>
        <translation>此处无法运行模块。</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>**Hint %1.** </source>
        <translation>**提示 %1：**</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Hint %1</source>
        <translation>提示 %1</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>Running the module…</source>
        <translation>正在运行模块…</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Correct!</source>
        <translation>回答正确！</translation>
    </message>
    <message>
        <location line="-90"/>
        <source>goal: %1 %2</source>
        <translation>目标：%1 %2</translation>
    </message>
    <message>
        <location line="+93"/>
        <source>Not quite. This is a common mistake:</source>
        <translation>不太对。这是一个常见的错误：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not quite. Try again, or take a hint.</source>
        <translation>不太对。再试一次，或者看看提示。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Hint (%1/%2)</source>
        <translation>提示（%1/%2）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Hint</source>
        <translation>提示</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Exercise</source>
        <translation>练习</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+2"/>
        <source>Exercise %1</source>
        <translation>练习 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run the module with these values and check the condition</source>
        <translation>用这些值运行模块并检查条件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check the answer (Enter in the answer field)</source>
        <translation>检查答案（在答案框中按 Enter）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reveal the next hint</source>
        <translation>显示下一条提示</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show solution</source>
        <translation>显示解答</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the worked solution</source>
        <translation>显示完整解答</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>Solution</source>
        <translation>解答</translation>
    </message>
    <message>
        <location line="-306"/>
        <source>Values that meet the condition: %1</source>
        <translation>满足条件的一组参数：%1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::ExportController</name>
    <message>
        <location filename="../src/ui/window/export_controller.cpp" line="+89"/>
        <location line="+36"/>
        <location line="+33"/>
        <location line="+105"/>
        <source>Export PDF</source>
        <translation>导出 PDF</translation>
    </message>
    <message>
        <location line="-171"/>
        <source>The whole course</source>
        <translation>整个课程</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Current chapter: %1. %2</source>
        <translation>当前章节：%1. %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Current chapter</source>
        <translation>当前章节</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export:</source>
        <translation>导出：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Student name</source>
        <translation>学生姓名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Student name:</source>
        <translation>学生姓名(&amp;S)：</translation>
    </message>
    <message>
        <location line="-65"/>
        <source>Leave out the &amp;hints (a worksheet)</source>
        <translation>不印提示（练习纸）(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Answer key: only the exercises and their solutions</source>
        <translation>答案册：只有练习和参考解答(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Leave out the appendi&amp;x (module runs and software)</source>
        <translation>不要附录（模块运行与软件版本）(&amp;X)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Contents:</source>
        <translation>内容：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A4</source>
        <translation>A4</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>US Letter</source>
        <translation>美国信纸（Letter）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Paper:</source>
        <translation>纸张(&amp;P)：</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>PDF documents (*.pdf)</source>
        <translation>PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <location line="+29"/>
        <location line="+11"/>
        <source>Exporting %1…</source>
        <translation>正在导出 %1…</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Export progress</source>
        <translation>导出进度</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>The export was cancelled.</source>
        <translation>导出已取消。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Chapter %1 of %2 done</source>
        <translation>已完成 %2 章中的 %1 章</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>About %n second(s) left</source>
        <translation>
            <numerusform>大约还需 %n 秒</numerusform>
        </translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The PDF could not be written.

%1</source>
        <translation>无法写入 PDF。

%1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::FormulaRenderer</name>
    <message>
        <location filename="../src/ui/formula/formula_renderer.cpp" line="+242"/>
        <source>Empty formula</source>
        <translation>空公式</translation>
    </message>
</context>
<context>
    <name>poslab::ui::HeatmapChart</name>
    <message>
        <location filename="../src/ui/charts/heatmap_chart.cpp" line="+274"/>
        <source>column</source>
        <translation>列</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>row %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>row %1 (%2)</source>
        <translation>第 %1 行（%2）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>column %1</source>
        <translation>第 %1 列</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>column %1 (%2)</source>
        <translation>第 %1 列（%2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, %2: %3</source>
        <translation>%1，%2：%3</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LabForm</name>
    <message>
        <location filename="../src/ui/lab/lab_form.cpp" line="+361"/>
        <source>About %1 parameters per model, about %2 of memory; %3 training characters per scheme.</source>
        <translation>每个模型约 %1 个参数，约需 %2 内存；每种方案训练 %3 个字符。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Time on this computer: timing a few training steps…</source>
        <translation>在这台电脑上的用时：正在为几步训练计时……</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Time on this computer for the whole run (every scheme, its evaluation and RoPE&apos;s scalings): about %1, estimated from training steps timed just now (%2 ms per step).</source>
        <translation>在这台电脑上跑完整次运行（每种方案、它的评估以及 RoPE 的各种缩放）约需 %1，这是按刚才实测的训练步估算的（每步 %2 毫秒）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Scoring the whole held-out text adds to it.</source>
        <translation>对整份留出文本评分的时间另计。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Train on a text file</source>
        <translation>用文本文件训练</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Text files (*.txt *.md *.text);;All files (*)</source>
        <translation>文本文件 (*.txt *.md *.text);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Training Lab</source>
        <translation>训练实验室</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Train one small character-level Transformer per position scheme on the same text and budget, then measure each beyond the length it was trained at: train short, test long.</source>
        <translation>每种位置编码各训练一个字符级小 Transformer，用同样的文本和同样的预算，再在超出训练长度的文本上测量它们：短训练，长测试。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Preset:</source>
        <translation>预设(&amp;P)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quick (as experiment length --quick)</source>
        <translation>快速（同 experiment length --quick）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Default (as experiment length)</source>
        <translation>默认（同 experiment length）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The command line&apos;s budgets: the same settings give the same numbers as poslab experiment length with the same thread count.</source>
        <translation>与命令行相同的预算：线程数相同时，同样的设置得到与 poslab experiment length 完全相同的数字。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>English fortunes</source>
        <translation>英文格言（fortunes）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chinese classical poems</source>
        <translation>中文古诗词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Synthetic task: copy</source>
        <translation>合成任务：复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Synthetic task: reverse</source>
        <translation>合成任务：倒序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Synthetic task: associative recall</source>
        <translation>合成任务：联想回忆</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A UTF-8 text file…</source>
        <translation>UTF-8 文本文件…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lines like “dbca|dbca”: write the symbols before ‘|’ again</source>
        <translation>每行形如“dbca|dbca”：把“|”前面的符号再写一遍</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lines like “dbca|acbd”: write them in reverse order</source>
        <translation>每行形如“dbca|acbd”：把它们倒过来写</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lines like “anbocp|bo”: key–value pairs, then the value of the key asked for</source>
        <translation>每行形如“anbocp|bo”：先是若干键值对，再写出所问的键对应的值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Corpus</source>
        <translation>语料</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fortunes and poems come from the Debian packages fortunes and fortunes-zh; the synthetic tasks are generated by PosLab (answers also scored by exact match); any UTF-8 text file works too. Every tenth entry is held out for evaluation.</source>
        <translation>格言和古诗词分别来自 Debian 软件包 fortunes 和 fortunes-zh；合成任务由 PosLab 自己生成（答案还会按完全匹配计分）；任何 UTF-8 文本文件也都可以。每十条留出一条用于评估。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>no file chosen</source>
        <translation>尚未选择文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Text file</source>
        <translation>文本文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Position schemes to train</source>
        <translation>要训练的位置编码</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>RoPE at longer lengths without retraining:</source>
        <translation>不重新训练，让 RoPE 处理更长文本：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PI (linear)</source>
        <translation>位置插值（线性）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>NTK-aware</source>
        <translation>NTK 感知缩放</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Dynamic NTK</source>
        <translation>动态 NTK</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Width (d_model):</source>
        <translation>宽度 d_model(&amp;W)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Heads:</source>
        <translation>注意力头数(&amp;H)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>La&amp;yers:</source>
        <translation>层数(&amp;Y)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Training &amp;context:</source>
        <translation>训练上下文(&amp;C)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The length the models see in training, in characters</source>
        <translation>模型在训练中看到的长度（字符数）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Steps per scheme:</source>
        <translation>每种方案的步数(&amp;S)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Batch:</source>
        <translation>批量(&amp;B)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Evaluation lengths:</source>
        <translation>评估长度(&amp;E)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Comma-separated, increasing, e.g. 64, 128, 256, 512</source>
        <translation>用逗号分隔，从小到大，例如 64, 128, 256, 512</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Held-out c&amp;haracters:</source>
        <translation>留出字符数(&amp;H)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Held-out characters scored at each length (0: all of them)</source>
        <translation>每个长度上计分的留出字符数（0 表示全部）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Learning &amp;rate:</source>
        <translation>学习率(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Peak learning rate; it warms up over a tenth of the steps and decays to a tenth</source>
        <translation>峰值学习率；前十分之一的步数用于预热，之后衰减到峰值的十分之一</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>See&amp;d:</source>
        <translation>随机种子(&amp;D)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Threads:</source>
        <translation>线程数(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Results are reproducible for the same seed and thread count</source>
        <translation>种子和线程数相同，结果就可以完全复现</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>BLAS kernels:</source>
        <translation>BLAS 计算内核：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The OpenBLAS CPU kernels the matrix products run on, and how they were chosen; &quot;poslab doctor&quot; shows more about this machine</source>
        <translation>矩阵乘法所用的 OpenBLAS CPU 内核，以及它们是怎样选出来的；“poslab doctor”会列出这台机器的更多信息</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LabPageController</name>
    <message>
        <location filename="../src/ui/window/lab_page_controller.cpp" line="+54"/>
        <source>Training cancelled; what finished is stored in %1</source>
        <translation>训练已取消；已完成的部分保存在 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Training finished; stored in %1</source>
        <translation>训练完成；结果保存在 %1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LabProgressView</name>
    <message>
        <location filename="../src/ui/lab/lab_progress_view.cpp" line="+31"/>
        <location line="+95"/>
        <source>Training progress</source>
        <translation>训练进度</translation>
    </message>
    <message>
        <location line="-74"/>
        <source>Loading the corpus…</source>
        <translation>正在载入语料…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Preparing the first model…</source>
        <translation>正在准备第一个模型…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Training %1 (%2 of %3): step %4 of %5, loss %6 bits/char, %7 characters/s, about %8 left</source>
        <translation>正在训练 %1（第 %2 个，共 %3 个）：第 %4 步，共 %5 步，损失 %6 比特/字符，每秒 %7 个字符，约剩 %8</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Evaluating %1 at every length and writing its sample…</source>
        <translation>正在按各个长度评估 %1，并生成它的续写样本…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Finishing…</source>
        <translation>正在收尾…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stopping now; the schemes that finished are kept…</source>
        <translation>正在立即停止；已完成的方案会保留…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stopping after the current step; the scheme in training is still evaluated and everything finished is kept (Stop Now skips that evaluation)…</source>
        <translation>当前这一步结束后停止；正在训练的方案仍会评估，已完成的结果都会保留（“立即停止”可跳过这次评估）…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Corpus: %1 training characters, %2 held-out, %3 distinct characters.</source>
        <translation>语料：训练集 %1 个字符，留出集 %2 个，共 %3 种不同字符。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 · %p% of the run</source>
        <translation>%1 · 全程已完成 %p%</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Stopped after %1, before any scheme was evaluated.</source>
        <translation>运行 %1 后停止，没有任何方案完成评估。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancelled after %1. The schemes that finished are shown below.</source>
        <translation>运行 %1 后取消。下方显示已完成的方案。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished in %1.</source>
        <translation>用时 %1 完成。</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LabResultsView</name>
    <message>
        <location filename="../src/ui/lab/lab_results_view.cpp" line="+271"/>
        <source>The results of a run appear here: held-out bits per character at each evaluation length (lower is better).</source>
        <translation>运行结果会显示在这里：每个评估长度上的留出集每字符比特数（越低越好）。</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Scheme</source>
        <translation>方案</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>bits/char
at %1</source>
        <translation>比特/字符
长度 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bits/char
at %1 (%2×)</source>
        <translation>比特/字符
长度 %1（%2×）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>answers right
at %1</source>
        <translation>答案正确率
长度 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Training
characters/s</source>
        <translation>训练速度
（字符/秒）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Memory
(estimate)</source>
        <translation>内存
（估计）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Time</source>
        <translation>用时</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 (stopped at step %2 of %3)</source>
        <translation>%1（在第 %2 步停止，共 %3 步）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The RoPE model above, evaluated with this inference-time scaling (factor = length / %1), without retraining.</source>
        <translation>即上面的 RoPE 模型，评估时加上这种推理期缩放（缩放因子 = 长度 ÷ %1），没有重新训练。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>refused</source>
        <translation>不适用</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 bits per character, perplexity %2, over %3 characters in %4 windows</source>
        <translation>每字符 %1 比特，困惑度 %2，共 %3 个字符、%4 个窗口</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>%1 of %2 answers exactly right (greedy), counting the examples wholly inside a window of %3</source>
        <translation>%2 个答案中有 %1 个完全正确（贪心解码），只统计完整落在长度为 %3 的窗口内的样例</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Held-out bits per character (lower is better; a uniform guess over the %1 characters costs %2). Bold: the best at each length. Trained at context %3; longer lengths test extrapolation.</source>
        <translation>留出集每字符比特数（越低越好；在 %1 种字符中均匀瞎猜要 %2 比特）。粗体：每个长度上的最好成绩。训练上下文为 %3；更长的长度检验外推能力。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>RoPE + … rows: the trained RoPE model with an inference-time scaling, no retraining (greyed columns are the RoPE model&apos;s).</source>
        <translation>“RoPE + …”各行：训练好的 RoPE 模型加上推理期缩放，没有重新训练（灰色的列就是 RoPE 模型本身的数值）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Refused: a learned position table has no rows beyond its training context (hover for the reason).</source>
        <translation>不适用：可学习位置表在训练上下文之外没有对应的行（鼠标悬停可查看原因）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Answers right: exact match of the answer part, decoded greedily; the question part is random, which is why bits per character stay high even when the answers are right.</source>
        <translation>答案正确率：用贪心解码，答案部分须逐字完全一致；问题部分是随机的，所以即使答案全对，每字符比特数也仍然偏高。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Memory is an estimate from the activation formulas, not a measurement.</source>
        <translation>内存是按激活值公式算出的估计，不是实测。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Each trained model&apos;s sample appears here.</source>
        <translation>每个训练好的模型的续写样本会显示在这里。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Each trained model continues the same held-out text, one character at a time (temperature %1). The same settings give the same text.</source>
        <translation>每个训练好的模型都接着同一段留出文本往下写，一次一个字符（温度 %1）。相同的设置会写出相同的文本。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>In grey, the held-out text every model is given; after it, what the model wrote, one character at a time (temperature %1). The same settings give the same text.</source>
        <translation>灰色是交给每个模型的同一段留出文本；其后是模型自己一个字符一个字符写出来的内容（温度 %1）。相同的设置会写出相同的文本。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No sample stored for this model.</source>
        <translation>这个模型没有保存样本。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No model finished.</source>
        <translation>没有模型完成训练。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>training step</source>
        <translation>训练步数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>training loss (bits/char, smoothed)</source>
        <translation>训练损失（比特/字符，平滑后）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Training loss of each scheme</source>
        <translation>各方案的训练损失</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The training loss of each scheme is drawn here while it trains.</source>
        <translation>训练时，各方案的训练损失曲线会实时画在这里。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>evaluation length (characters; trained at %1)</source>
        <translation>评估长度（字符；训练长度 %1）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>held-out bits/char</source>
        <translation>留出集比特/字符</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Loss versus evaluation length</source>
        <translation>损失随评估长度的变化</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples</source>
        <translation>续写样本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Training results</source>
        <translation>训练结果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Results table</source>
        <translation>结果表</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LabRun</name>
    <message>
        <location filename="../src/ui/lab/training_lab_run.cpp" line="+260"/>
        <source>Choose at least one position scheme to train.</source>
        <translation>请至少选择一种要训练的位置编码方案。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a corpus or a text file to train on.</source>
        <translation>请选择用于训练的语料或文本文件。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The corpus is not installed: %1</source>
        <translation>语料尚未安装：%1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The text file %1 does not exist.</source>
        <translation>文本文件 %1 不存在。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The text file %1 cannot be read.</source>
        <translation>无法读取文本文件 %1。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The model width (%1) must be a multiple of the number of heads (%2): each head gets an equal share of the channels.</source>
        <translation>模型宽度（%1）必须是注意力头数（%2）的整数倍：每个头分到同样多的通道。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>RoPE rotates pairs of channels, so the head width (model width %1 / %2 heads = %3) must be even.</source>
        <translation>RoPE 成对旋转通道，所以每个头的宽度（模型宽度 %1 ÷ %2 个头 = %3）必须是偶数。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The sinusoidal table pairs a sine with a cosine, so the model width (%1) must be even.</source>
        <translation>正弦位置表把正弦和余弦配成一对，所以模型宽度（%1）必须是偶数。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Give at least one evaluation length, e.g. 64,128,256,512.</source>
        <translation>请至少给出一个评估长度，例如 64,128,256,512。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The evaluation length %1 is not allowed; lengths go from 1 to 65536.</source>
        <translation>评估长度 %1 不可用；长度应在 1 到 65536 之间。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>List the evaluation lengths in increasing order, each once.</source>
        <translation>请按从小到大的顺序列出评估长度，每个只写一次。</translation>
    </message>
    <message>
        <location line="-44"/>
        <location line="+52"/>
        <source>These settings cannot be trained: %1</source>
        <translation>这组设置无法训练：%1</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>A training run is already going on.</source>
        <translation>已有一次训练正在进行。</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LabRunBanner</name>
    <message>
        <location filename="../src/ui/lab/lab_run_banner.cpp" line="+36"/>
        <location line="+121"/>
        <source>Use these settings</source>
        <translation>采用这组设置</translation>
    </message>
    <message>
        <location line="-120"/>
        <location line="+121"/>
        <source>Fill the form with the settings of the run shown</source>
        <translation>把当前显示的这次运行的设置填入左侧表单</translation>
    </message>
    <message>
        <location line="-85"/>
        <source>Corpus %1; model width %2, %3 heads, %4 layers, trained at context %5; %6 steps × batch %7, learning rate %8, seed %9.</source>
        <translation>语料 %1；模型宽度 %2，%3 个头，%4 层，训练上下文 %5；%6 步 × 批量 %7，学习率 %8，种子 %9。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source> Evaluated at lengths %1 on %2 held-out characters each. Schemes: %3.</source>
        <translation>在长度 %1 上评估，每个长度用 %2 个留出字符。方案：%3。</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+2"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location line="-1"/>
        <source> Evaluated at lengths %1 on all the held-out text. Schemes: %2.</source>
        <translation>在长度 %1 上评估，每个长度用全部留出文本。方案：%2。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&lt;b&gt;Training now.&lt;/b&gt;</source>
        <translation>&lt;b&gt;正在训练。&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+47"/>
        <source>Command: &lt;code&gt;%1&lt;/code&gt;</source>
        <translation>等价命令：&lt;code&gt;%1&lt;/code&gt;</translation>
    </message>
    <message>
        <location line="-45"/>
        <location line="+42"/>
        <source>BLAS kernels: %1</source>
        <translation>BLAS 计算内核：%1</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>&lt;b&gt;No stored run yet.&lt;/b&gt; Choose the settings on the left (under them, how long they take on this computer, timed just now) and press Start. Runs of &lt;code&gt;poslab experiment length&lt;/code&gt; on the command line appear here too.</source>
        <translation>&lt;b&gt;还没有保存的运行。&lt;/b&gt;在左侧选好设置（设置下方显示刚在这台电脑上实测推算的用时），然后按“开始训练”。命令行 &lt;code&gt;poslab experiment length&lt;/code&gt; 的运行也会显示在这里。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Not stored: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped a stored file: %1</source>
        <translation>跳过了一个保存的文件：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>the Training Lab</source>
        <translation>训练实验室</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the PDF export</source>
        <translation>PDF 导出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1, %2 of %3 cores</source>
        <translation>%1，使用 %2 个线程（共 %3 核）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;This run&lt;/b&gt; finished %1 on %2.</source>
        <translation>&lt;b&gt;本次运行&lt;/b&gt;于 %1 完成，机器：%2。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Chosen stored run:&lt;/b&gt; %1, from %2, on %3.</source>
        <translation>&lt;b&gt;选定的运行：&lt;/b&gt;%1，来自%2，机器：%3。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Latest stored run:&lt;/b&gt; %1, from %2, on %3.</source>
        <translation>&lt;b&gt;最近保存的运行：&lt;/b&gt;%1，来自%2，机器：%3。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;The course&apos;s reference run&lt;/b&gt; (you have no complete run of your own yet): %1, from %2, on %3.</source>
        <translation>&lt;b&gt;课程的参考运行&lt;/b&gt;（你还没有自己的完整运行）：%1，来自%2，机器：%3。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&lt;b&gt;Latest complete run:&lt;/b&gt; %1, from %2, on %3.</source>
        <translation>&lt;b&gt;最近一次完整的运行：&lt;/b&gt;%1，来自%2，机器：%3。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;It was cancelled:&lt;/b&gt; the last scheme shown may be partly trained.</source>
        <translation>&lt;b&gt;这次运行中途取消了：&lt;/b&gt;表中最后一个方案可能只训练了一部分。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No complete run is stored yet.</source>
        <translation>目前还没有保存完整的运行。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Stored in &lt;a href=&quot;%1&quot;&gt;%2&lt;/a&gt;.</source>
        <translation>已保存到 &lt;a href=&quot;%1&quot;&gt;%2&lt;/a&gt;。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Read from &lt;a href=&quot;%1&quot;&gt;%2&lt;/a&gt;.</source>
        <translation>读自 &lt;a href=&quot;%1&quot;&gt;%2&lt;/a&gt;。</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LabRunPicker</name>
    <message>
        <location filename="../src/ui/lab/lab_run_picker.cpp" line="+45"/>
        <source>quick</source>
        <translation>quick</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>full</source>
        <translation>完整预算</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>complete</source>
        <translation>完整</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>CANCELLED</source>
        <translation>已取消</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%1 · %2 · %3 · %4 · %n scheme(s)</source>
        <translation>
            <numerusform>%1 · %2 · %3 · %4 · %n 个方案</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 · course reference</source>
        <translation>%1 · 课程参考运行</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The course&apos;s reference run (%1), until you have a complete run</source>
        <translation>课程的参考运行（%1），直到你有一次完整的运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Latest complete run (%1)</source>
        <translation>最近一次完整的运行（%1）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Follows your newest complete run, else the reference run shipped with the course; a cancelled run only when no complete one is stored</source>
        <translation>跟随你最新的完整运行；没有时使用随课程提供的参考运行；只有在没有任何完整运行时才使用已取消的运行</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Latest run (no complete run is stored; it was cancelled)</source>
        <translation>最近的运行（没有完整的运行；它已取消）</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Latest complete run (none stored yet)</source>
        <translation>最近一次完整的运行（还没有保存过）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Run shown:</source>
        <translation>显示的运行(&amp;R)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The stored run shown here, in the chapters that show training results and in the PDF</source>
        <translation>在这里、在展示训练结果的章节以及 PDF 中显示的那次已保存运行</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Complete: every scheme finished.</source>
        <translation>完整：每个方案都训练完了。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled: only the schemes that finished are in it.</source>
        <translation>已取消：其中只有已完成的方案。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Its trained models are stored with it.</source>
        <translation>训练好的模型与它一起保存。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Its trained models are not stored.</source>
        <translation>没有保存训练好的模型。</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LabText</name>
    <message>
        <location filename="../src/ui/lab/lab_text.cpp" line="+15"/>
        <source>No position (NoPE)</source>
        <translation>无位置编码（NoPE）</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+15"/>
        <source>Sinusoidal</source>
        <translation>正弦</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Learned absolute</source>
        <translation>可学习绝对位置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>T5 relative bias</source>
        <translation>T5 相对偏置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>RoPE + PI (linear)</source>
        <translation>RoPE + 位置插值（线性）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>RoPE + NTK-aware</source>
        <translation>RoPE + NTK 感知缩放</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>RoPE + dynamic NTK</source>
        <translation>RoPE + 动态 NTK</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Learned</source>
        <translation>可学习</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>T5 bias</source>
        <translation>T5 偏置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>RoPE+PI</source>
        <translation>RoPE+插值</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>RoPE+dyn. NTK</source>
        <translation>RoPE+动态NTK</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LessonView</name>
    <message>
        <location filename="../src/ui/notebook/lesson_view.cpp" line="+612"/>
        <source>Lesson text</source>
        <translation>课文</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Step title</source>
        <translation>步骤标题</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>This block cannot be shown: %1
(%2, line %3)</source>
        <translation>此内容块无法显示：%1
（%2，第 %3 行）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>Chapter %1 · %2 · step %3 of %4</source>
        <translation>第 %1 章 · %2 · 第 %3 步，共 %4 步</translation>
    </message>
</context>
<context>
    <name>poslab::ui::LivePreview</name>
    <message>
        <location filename="../src/ui/window/live_preview.cpp" line="+90"/>
        <source>&amp;Live Preview of Edited Files</source>
        <translation>实时预览编辑中的文件(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show a chapter again each time its file is saved, with check&apos;s problems beside it</source>
        <translation>每次保存章节文件时重新显示这一章，并在旁边列出 check 找到的问题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Problems in This Chapter</source>
        <translation>本章的问题</translation>
    </message>
    <message>
        <location line="+111"/>
        <source>No problems: this chapter passes check.</source>
        <translation>没有问题：这一章通过了 check。</translation>
    </message>
</context>
<context>
    <name>poslab::ui::MainWindow</name>
    <message>
        <location filename="../src/ui/window/main_window.cpp" line="+45"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Your answers could not be saved: %1</source>
        <translation>无法保存你的答案：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Saved progress could not be read (%1); starting afresh.</source>
        <translation>无法读取已保存的进度（%1），将从头开始。</translation>
    </message>
    <message>
        <location line="+246"/>
        <source>Previous</source>
        <translation>上一步</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Previous step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Next</source>
        <translation>下一步</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Previous Step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next Step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Switch to English</source>
        <translation>切换到英文</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Switch to Chinese</source>
        <translation>切换到中文</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show the course and the window in English</source>
        <translation>以英文显示课程和窗口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the course and the window in Chinese</source>
        <translation>以中文显示课程和窗口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export the current chapter or the whole course as a PDF report</source>
        <translation>将当前章节或整个课程导出为 PDF 报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search the course</source>
        <translation>搜索课程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quit PosLab</source>
        <translation>退出 PosLab</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About PosLab</source>
        <translation>关于 PosLab(&amp;A)</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+3"/>
        <location line="+13"/>
        <source>Contents</source>
        <translation>目录</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Show or hide the table of contents</source>
        <translation>显示或隐藏目录</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Go</source>
        <translation>前往(&amp;G)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Text Size</source>
        <translation>文字大小(&amp;T)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>T&amp;heme</source>
        <translation>主题(&amp;H)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>Navigation</source>
        <translation>导航</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Step counter</source>
        <translation>步骤计数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lesson</source>
        <translation>课程内容</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Step %1 of %2 in chapter %3, “%4”</source>
        <translation>第 %3 章“%4”的第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 — PosLab</source>
        <translation>%1 — PosLab</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>The link %1 does not lead to a chapter of this course.</source>
        <translation>链接 %1 并不指向本课程的章节。</translation>
    </message>
    <message>
        <location filename="../src/ui/window/window_dialogs.cpp" line="+32"/>
        <source>About PosLab</source>
        <translation>关于 PosLab</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;h3&gt;PosLab %1&lt;/h3&gt;&lt;p&gt;A notebook that teaches positional encoding in Transformers: lessons in Chinese and English, live charts from C++ modules, exercises, PDF reports.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;PosLab %1&lt;/h3&gt;&lt;p&gt;讲解 Transformer 位置编码的交互式笔记本：中英文课程、由 C++ 模块实时生成的图表、练习以及 PDF 报告。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../src/ui/window/main_window.cpp" line="-133"/>
        <source>Training Lab</source>
        <translation>训练实验室</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Train small models with each position scheme, or go back to the lessons</source>
        <translation>用每种位置编码训练小模型，或返回课程</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Training Lab — PosLab</source>
        <translation>训练实验室 — PosLab</translation>
    </message>
    <message>
        <location line="+105"/>
        <source>Stopping the training run…</source>
        <translation>正在停止训练…</translation>
    </message>
    <message>
        <location line="-154"/>
        <source>Open Assignment…</source>
        <translation>打开作业…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open an assignment file from your teacher and work through its exercises</source>
        <translation>打开老师发来的作业文件，逐一完成其中的练习</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New Assignment…</source>
        <translation>新建作业…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Make an assignment for students from chapters and exercises of this course</source>
        <translation>从本课程的章节和练习中挑选，给学生布置作业</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Submit…</source>
        <translation>提交…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save your answers to a file to hand in to your teacher</source>
        <translation>把你的答案保存成文件，交给老师</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Leave Assignment</source>
        <translation>退出作业</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Go back to the course; your answers stay saved for when you open the assignment again</source>
        <translation>返回课程；你的答案已经保存，下次打开这份作业时还在</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>%1 — %2 — PosLab</source>
        <translation>%1 — %2 — PosLab</translation>
    </message>
    <message>
        <location filename="../src/ui/window/window_entry.cpp" line="+99"/>
        <source>Open Assignment</source>
        <translation>打开作业</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>This assignment cannot be opened.

%1</source>
        <translation>无法打开这份作业。

%1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::MarkdownDocument</name>
    <message>
        <location filename="../src/ui/document/markdown_document.cpp" line="+570"/>
        <source>link not allowed: %1</source>
        <translation>不允许的链接：%1</translation>
    </message>
    <message>
        <location filename="../src/ui/document/markdown_references.cpp" line="+36"/>
        <location line="+7"/>
        <source>image not allowed: %1</source>
        <translation>不允许的图片：%1</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>image missing: %1</source>
        <translation>图片缺失：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>image unreadable: %1</source>
        <translation>图片无法读取：%1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::OutputTableModel</name>
    <message>
        <location filename="../src/ui/charts/output_table.cpp" line="-138"/>
        <location line="+43"/>
        <location line="+4"/>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="-47"/>
        <location line="+43"/>
        <location line="+4"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="-76"/>
        <source>label</source>
        <translation>标签</translation>
    </message>
</context>
<context>
    <name>poslab::ui::ParamPanel</name>
    <message>
        <location filename="../src/ui/notebook/param_panel.cpp" line="+482"/>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restore the values written in the lesson</source>
        <translation>恢复课程中给定的数值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset parameters</source>
        <translation>重置参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
</context>
<context>
    <name>poslab::ui::PlayControl</name>
    <message>
        <location filename="../src/ui/notebook/play_control.cpp" line="+62"/>
        <source>%1: %2 frames</source>
        <translation>%1：共 %2 帧</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 = %2 · frame %3 of %4</source>
        <translation>%1 = %2 · 第 %3 帧，共 %4 帧</translation>
    </message>
    <message>
        <location line="+65"/>
        <location line="+1"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Play through %1</source>
        <translation>逐帧播放%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous frame</source>
        <translation>上一帧</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous frame (Left)</source>
        <translation>上一帧（←）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next frame</source>
        <translation>下一帧</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Next frame (Right)</source>
        <translation>下一帧（→）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Play %1</source>
        <translation>播放%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Motion is reduced: step with the buttons or Left and Right</source>
        <translation>已减少动态效果：用按钮或 ← → 逐帧查看</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Space plays and pauses; Left and Right step one frame</source>
        <translation>空格键播放或暂停；← → 逐帧前后移动</translation>
    </message>
</context>
<context>
    <name>poslab::ui::RunBlockCard</name>
    <message>
        <location filename="../src/ui/notebook/lesson_view.cpp" line="-444"/>
        <source>Figure caption</source>
        <translation>图注</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Modules cannot run here.</source>
        <translation>此处无法运行模块。</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>Chart %1 of %2 (%3)</source>
        <translation>第 %1 张图，共 %2 张（%3）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chart of %1</source>
        <translation>%1 的图表</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>%1 could not run: %2
(%3, line %4)</source>
        <translation>%1 无法运行：%2
（%3，第 %4 行）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Running %1…</source>
        <translation>正在运行 %1…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running %1</source>
        <translation>正在运行 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>You changed the settings: the caption and the text around this chart describe the lesson&apos;s settings.</source>
        <translation>你改动了设置：图注和这张图周围的文字说的是课程原本的设置。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back to the Lesson&apos;s Settings</source>
        <translation>回到课程的设置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Module %1</source>
        <translation>模块 %1</translation>
    </message>
</context>
<context>
    <name>poslab::ui::SearchPanel</name>
    <message>
        <location filename="../src/ui/notebook/search_panel.cpp" line="+83"/>
        <source>%1 › %2
%3</source>
        <translation>%1 › %2
%3</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n match(es) in this step</source>
        <translation>
            <numerusform>此步骤中有 %n 处匹配</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No matches</source>
        <translation>没有匹配</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n step(s) found</source>
        <translation>
            <numerusform>找到 %n 个步骤</numerusform>
        </translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Search the course (Ctrl+F)</source>
        <translation>搜索课程（Ctrl+F）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search the course</source>
        <translation>搜索课程</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type to list matching steps; Enter opens the first; Esc clears</source>
        <translation>输入文字以列出匹配的步骤；Enter 打开第一个；Esc 清除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search results</source>
        <translation>搜索结果</translation>
    </message>
</context>
<context>
    <name>poslab::ui::ShortcutsSheet</name>
    <message>
        <location filename="../src/ui/window/shortcuts_sheet.cpp" line="+38"/>
        <location line="+14"/>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>What it does</source>
        <translation>作用</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Check the answer in an answer field</source>
        <translation>在答案框里检查答案</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Enter</source>
        <translation>回车键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move a slider, a spin box or a list by one step</source>
        <translation>把滑块、数值框或列表移动一格</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>←/→ or ↑/↓ (while it has the focus)</source>
        <translation>←/→ 或 ↑/↓（控件获得焦点时）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Move between the controls of the page</source>
        <translation>在页面的各个控件之间移动</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tab, Shift+Tab</source>
        <translation>Tab、Shift+Tab</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Play or pause a chart&apos;s frames</source>
        <translation>播放或暂停图表的各帧</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Space (while its play control has the focus)</source>
        <translation>空格（播放控件获得焦点时）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Step a chart&apos;s frames; the first or the last frame</source>
        <translation>逐帧查看图表；跳到第一帧或最后一帧</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>←/→; Home, End (while its play control has the focus)</source>
        <translation>←/→；Home、End（播放控件获得焦点时）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Move the cursor of a heatmap by one cell</source>
        <translation>把热力图的光标移动一格</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>←/→/↑/↓ (while it has the focus)</source>
        <translation>←/→/↑/↓（热力图获得焦点时）</translation>
    </message>
</context>
<context>
    <name>poslab::ui::TocPanel</name>
    <message>
        <location filename="../src/ui/notebook/toc_panel.cpp" line="+74"/>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
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
        <location line="+42"/>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Steps visited</source>
        <translation>已访问的步骤</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Visited</source>
        <translation>已访问</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Table of contents</source>
        <translation>目录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chapters and steps; Enter or a click opens a step</source>
        <translation>章节与步骤；按 Enter 或单击打开步骤</translation>
    </message>
    <message>
        <location line="-71"/>
        <source>✎%1/%2</source>
        <translation>✎%1/%2</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Exercises solved: %1 of %2</source>
        <translation>已解练习：%1 / %2</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Exercises answered: %1 of %2</source>
        <translation>已答练习：%1 / %2</translation>
    </message>
</context>
<context>
    <name>poslab::ui::TrainingLabPage</name>
    <message>
        <location filename="../src/ui/lab/training_lab_page.cpp" line="+246"/>
        <location line="+179"/>
        <source>Not started: %1</source>
        <translation>未开始：%1</translation>
    </message>
    <message>
        <location line="-122"/>
        <source>The run could not start: %1</source>
        <translation>无法开始运行：%1</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>The results could not be stored: %1</source>
        <translation>结果无法保存：%1</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>Cancelled before any scheme finished a step; nothing was stored.</source>
        <translation>在任何方案完成一步之前就取消了；没有保存任何结果。</translation>
    </message>
    <message>
        <location line="+101"/>
        <source>Start training</source>
        <translation>开始训练</translation>
    </message>
    <message>
        <location line="-235"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stops after the current step and keeps what finished</source>
        <translation>在当前这一步之后停止，并保留已完成的结果</translation>
    </message>
    <message>
        <location line="+169"/>
        <source>Shown: the run just cancelled (stored, and listed above as cancelled). The chapters and the PDF keep showing the run chosen above.</source>
        <translation>正在显示：刚刚取消的运行（已保存，并在上方列为“已取消”）。各章和 PDF 仍然显示上方选定的运行。</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Training settings</source>
        <translation>训练设置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>← Back to the lessons</source>
        <translation>← 返回课程</translation>
    </message>
    <message>
        <location line="-239"/>
        <source>Stop now</source>
        <translation>立即停止</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skips the evaluation of the scheme in training; the schemes that finished are kept</source>
        <translation>跳过对正在训练的方案的评估；已完成的方案会保留</translation>
    </message>
    <message>
        <location line="+131"/>
        <source>Stopped before any scheme was evaluated; nothing was stored.</source>
        <translation>在任何方案完成评估之前就停止了；没有保存任何结果。</translation>
    </message>
</context>
<context>
    <name>poslab::ui::WelcomeCard</name>
    <message>
        <location filename="../src/ui/notebook/welcome_card.cpp" line="+26"/>
        <source>**How to use PosLab**

- **Step through a chapter** with → or Page Down (the **Next** button), back with ← or Page Up. The contents on the left jump to any step; Ctrl+F searches the whole course.
- **Charts are computed on your computer.** Move a slider or change a setting under a chart and it is computed again. The text describes the lesson&apos;s settings; **Reset** beside the settings (or **Back to the Lesson&apos;s Settings** above the chart) returns to them.
- **Exercises are checked at once.** Answer, then press Check. Hints come one at a time, only when you ask; the worked solution shows when you answer right or ask for it. Your answers are saved as you type.
- **Marks in the contents:** beside a chapter, %3 means you have read 4 of its 10 steps; beside a step, %1 means one of its three exercises is solved and %2 that you have read it.
- **Where to start:** here, with the next step. PosLab remembers where you stop and opens there next time. The **Training Lab** (toolbar) trains small Transformers on this computer for chapter 11; **Export PDF** makes a report of your work; Ctrl+L switches between English and Chinese.</source>
        <translation>**怎样使用 PosLab**

- **逐步阅读一章**：按 → 或 Page Down（或点“下一步”）前进，按 ← 或 Page Up 后退。左边的目录可以跳到任意一步；Ctrl+F 搜索整门课程。
- **图表在你自己的电脑上计算。** 拖动图下的滑块或改一个设置，图就会重新计算。正文说的是课程原本的设置；点设置旁的“重置”（或图上方的“回到课程的设置”）即可回去。
- **练习当场判分。** 作答后按“检查”。提示只在你要看时才一条一条地出现；答对或点“显示解答”后会给出完整解答。你的答案边输入边保存。
- **目录里的标记：** 章节旁的 %3 表示这一章的 10 步你已读过 4 步；步骤旁的 %1 表示这一步的三道练习已做对一道，%2 表示这一步你已经读过。
- **从哪里开始：** 就从这里，接着看下一步。PosLab 会记住你停在哪里，下次直接打开那一步。工具栏里的“训练实验室”在这台电脑上训练小型 Transformer，供第 11 章使用；“导出 PDF”把你的学习情况做成报告；Ctrl+L 在中文和英文之间切换。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>How to use PosLab</source>
        <translation>怎样使用 PosLab</translation>
    </message>
</context>
</TS>
