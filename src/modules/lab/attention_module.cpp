// SPDX-License-Identifier: Apache-2.0
// attention_module.cpp — lab.attention: the attention maps of a stored run's
// trained models (lab_model_access.h), for a text the learner picks.
//
// The text (`text`): a preset by name, or any text of the reader's own (up
// to kMaxTextChars characters; ParamSpec::freeTextMax), encoded with the
// model's own character vocabulary (the one its checkpoint keeps).
// Decision on characters the model never saw: they are not refused; each is
// replaced by <unk> (id 0, which the model never read in training: its row
// of the tied embedding was only pushed down as a prediction), the `tokens`
// table marks them and `notes` names them — refusing would make every preset
// useless with a model of another language. A text is cut to `max_chars`
// characters, with a note. Positions beyond the run's training context
// (0-based index >= train_ctx) are marked "*" in the labels: there the model
// meets positions (or, for the relative schemes, distances) that training
// never showed it. The learned scheme has no vector for those positions, so
// its map stops at the training context (a note says so).
//
// Weights come from lm_model::attention_weights (one forward pass, the
// weights that pass used). head = 0 shows the mean over the heads.
#include "modules/lab/lab_model_access.h"
#include "modules/lab/run_list.h"
#include "modules/registry.h"

#include "lm/model.h"

#include <algorithm>
#include <set>
#include <string>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

// The longest text the `text` parameter takes (longer is refused by the
// registry with the limit); what is shown is cut further to max_chars.
constexpr int kMaxTextChars = 20000;

struct AttentionPreset {
    QString name;
    Text2 text;
};

// The texts a learner can pick without typing (each language's chapter may
// pick its own: `text` is perLanguage). "prompt" is the run's own held-out
// prompt, which the model's vocabulary always covers.
const std::vector<AttentionPreset>& attentionPresets()
{
    static const std::vector<AttentionPreset> presets{
        {u"sentence"_s,
         Text2::same(u"The quick brown fox jumps over the lazy dog, and then the dog sleeps on in the sun."_s)},
        {u"repeat"_s, Text2::same(u"the cat sat on the mat. the cat sat on the mat. the cat sat on the mat. "
                                  u"the cat sat on the mat. the cat sat on the mat."_s)},
        {u"poem"_s, Text2::same(u"床前明月光，疑是地上霜。举头望明月，低头思故乡。白日依山尽，黄河入海流。"
                                u"欲穷千里目，更上一层楼。春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。"_s)},
        {u"long"_s,
         Text2::same(u"A fortune cookie is a crisp cookie with a slip of paper inside, on which is a word of "
                     u"wisdom or a vague prophecy. The message may also hold a Chinese phrase with its "
                     u"translation, or a list of lucky numbers used by some as lottery numbers."_s)},
    };
    return presets;
}

QStringList attentionTextChoices()
{
    QStringList out;
    for (const AttentionPreset& p : attentionPresets()) out << p.name;
    out << u"prompt"_s;
    return out;
}

// What the reader asked for.
struct AttentionView {
    QString lang, scheme, textName;
    int layer = 1, head = 0, maxChars = 256;
};

// A character as a label: visible, one cell wide.
QString charLabel(char32_t c)
{
    if (c == U'\n') return u"⏎"_s;
    if (c == U' ') return u"␣"_s;
    if (c == U'\t') return u"⇥"_s;
    return QString::fromUcs4(&c, 1);
}

// The text: a preset, or the run's prompt; cut to maxChars (note).
std::u32string chosenText(const AttentionView& v, const lab::StoredRun& run, QStringList& notes)
{
    QString text = v.textName;  // the reader's own text, unless it names a preset
    if (v.textName == u"prompt"_s) {
        text = run.provenance.samplePrompt;
        if (text.isEmpty()) text = attentionPresets().front().text.in(v.lang);  // a run stored without a prompt
    }
    for (const AttentionPreset& p : attentionPresets())
        if (p.name == v.textName) text = p.text.in(v.lang);
    std::u32string u = text.toStdU32String();
    if (u.size() > std::size_t(v.maxChars)) {
        notes << T2("The text has %1 characters: the first %2 are shown (max_chars).",
                    "文本有 %1 个字符：只显示前 %2 个（max_chars）。")
                     .in(v.lang)
                     .arg(u.size())
                     .arg(v.maxChars);
        u.resize(std::size_t(v.maxChars));
    }
    return u;
}

// The text's ids in `vocab`; unknown characters become <unk> and are named in a note.
std::vector<int> encodeForModel(const std::u32string& text, const vocabulary& vocab, const QString& lang,
                                QStringList& notes)
{
    std::vector<int> ids;
    QStringList unknown;
    std::set<char32_t> seen;
    for (char32_t c : text) {
        const int id = vocab.id(c);
        ids.push_back(id);
        if (id == vocabulary::unk_id && seen.insert(c).second) {
            unknown << charLabel(c);
        }
    }
    if (!unknown.isEmpty())
        notes << T2("%1 of the text's characters are not in the model's vocabulary (%2 characters from its corpus) "
                    "and are shown as <unk>: %3",
                    "文本中有 %1 种字符不在模型的词表里（词表共 %2 个字符，来自训练语料），显示为 <unk>：%3")
                     .in(lang)
                     .arg(unknown.size())
                     .arg(vocab.size() - 1)
                     .arg(unknown.join(u' '));
    return ids;
}

// Row/column labels: "12 h", "70 e*" beyond the training context.
QStringList positionLabels(const std::u32string& text, const std::vector<int>& ids, int T, int context)
{
    QStringList out;
    for (int t = 0; t < T; ++t) {
        const QString c = ids[std::size_t(t)] == vocabulary::unk_id ? u"<unk>"_s : charLabel(text[std::size_t(t)]);
        out << QStringLiteral("%1 %2%3").arg(t).arg(c, t >= context ? u"*"_s : QString());
    }
    return out;
}

// The map of one layer, one head or the mean over heads (T, T).
std::vector<double> headMap(const std::vector<float>& layerWeights, int H, int T, int head)
{
    std::vector<double> out(std::size_t(T) * T, 0.0);
    const std::size_t TT = std::size_t(T) * T;
    for (int h = 0; h < H; ++h) {
        if (head > 0 && h != head - 1) continue;
        const double w = head > 0 ? 1.0 : 1.0 / H;
        for (std::size_t i = 0; i < TT; ++i) out[i] += w * layerWeights[std::size_t(h) * TT + i];
    }
    return out;
}

// Mean weight at each distance d = i − j over the queries i >= d.
std::vector<double> weightByDistance(const std::vector<double>& map, int T)
{
    std::vector<double> out(std::size_t(T), 0.0);
    for (int d = 0; d < T; ++d) {
        double s = 0.0;
        for (int i = d; i < T; ++i) s += map[std::size_t(i) * T + (i - d)];
        out[std::size_t(d)] = s / double(T - d);
    }
    return out;
}

// One scheme's map and its by-distance series.
// Returns the model's vocabulary (the run's: the same for every scheme).
vocabulary addSchemeMaps(std::vector<Output>& out, const lab::StoredRun& run, const QString& scheme,
                         const std::u32string& text, const AttentionView& v, QStringList& notes, bool first)
{
    const lm_checkpoint ck = loadShownModel(run, scheme, v.lang);
    lm_model& model = *ck.model;
    const lm_config& c = model.config();
    if (!ck.has_vocabulary)
        throw NeedsAction(T2("The %1 model of run %2 was stored without its vocabulary, so a text cannot be given "
                             "to it. Make a new run (`poslab experiment length --quick`).",
                             "运行 %2 的 %1 模型保存时没有附带词表，无法把文本交给它。请重新训练一次"
                             "（`poslab experiment length --quick`）。")
                              .in(v.lang)
                              .arg(scheme, run.id)
                              .toStdString());
    QStringList encodeNotes;
    std::vector<int> ids = encodeForModel(text, ck.vocab, v.lang, encodeNotes);
    if (first) notes << encodeNotes;  // the same for every scheme: they share the run's vocabulary
    int T = int(ids.size());
    if (c.position == LM_POSITION_LEARNED && T > c.context) {
        notes << T2("learned: its position table has %1 rows, so its map stops at the training context.",
                    "learned：它的位置表只有 %1 行，因此它的注意力图只到训练上下文为止。")
                     .in(v.lang)
                     .arg(c.context);
        T = c.context;
        ids.resize(std::size_t(T));
    }
    const int layer = std::min(v.layer, c.n_layers), head = std::min(v.head, c.n_heads);
    if (first && (layer != v.layer || head != v.head))
        notes << T2("The models have %1 layers and %2 heads: showing layer %3, %4.",
                    "模型有 %1 层、%2 个头：显示第 %3 层，%4。")
                     .in(v.lang)
                     .arg(c.n_layers)
                     .arg(c.n_heads)
                     .arg(layer)
                     .arg(head == 0 ? T2("the mean over heads", "各头的平均").in(v.lang)
                                    : T2("head %1", "第 %1 个头").in(v.lang).arg(head));
    const std::vector<std::vector<float>> weights = model.attention_weights(ids.data(), T);
    std::vector<double> map = headMap(weights[std::size_t(layer - 1)], c.n_heads, T, head);
    const QStringList labels = positionLabels(text, ids, T, c.context);
    const QString name = schemeOutputName(scheme);
    std::vector<double> byDistance = weightByDistance(map, T);
    out.push_back(Output::matrix(u"attention_"_s + name, T, T, std::move(map), labels, labels));
    out.push_back(Output::series(u"by_distance_"_s + name, rangeDoubles(std::size_t(T)), std::move(byDistance)));
    return ck.vocab;
}

// The tokens table: what the model was given.
Output tokensTable(const std::u32string& text, const vocabulary& vocab, int context)
{
    std::vector<QVariantList> rows;
    for (std::size_t t = 0; t < text.size(); ++t) {
        const int id = vocab.id(text[t]);
        rows.push_back({qlonglong(t), charLabel(text[t]), qlonglong(id), id != vocabulary::unk_id, int(t) >= context});
    }
    return Output::table(u"tokens"_s, {u"position"_s, u"character"_s, u"id"_s, u"known"_s, u"beyond_training"_s},
                         std::move(rows));
}

std::vector<Output> runAttention(const Params& p, const RunContext& ctx)
{
    AttentionView v;
    v.lang = p.getChoice(u"lang"_s);
    v.scheme = p.getChoice(u"scheme"_s);
    v.textName = p.getChoice(u"text"_s);
    v.layer = int(p.getInt(u"layer"_s));
    v.head = int(p.getInt(u"head"_s));
    v.maxChars = int(p.getInt(u"max_chars"_s));
    const ShownRun shown = shownRun(ctx, v.lang);
    const lab::StoredRun& run = shown.run;
    const QStringList schemes = pickedSchemes(v.scheme, trainedSchemesWithModels(run, v.lang), run);
    QStringList notes{runNote(shown, v.lang)};
    // A model knows only its corpus's characters: say plainly that the
    // fortunes models (the reference run's) read English.
    if (run.provenance.corpus == u"fortunes"_s)
        notes << T2("These models were trained on an English corpus (%1) and know only its characters, so they read "
                    "English text here. Chinese characters are not in their vocabulary and show as <unk>; to see a "
                    "model read Chinese, train one on the Tang and Song poems: `poslab experiment length --corpus "
                    "poems`.",
                    "这些模型是在英文语料（%1）上训练的，只认识其中的字符，所以这里给它们读的是英文文本："
                    "你看到的是英文模型读英文时的注意力。汉字不在它们的词表中，会显示为 <unk>。想看模型读中文，"
                    "可以用 `poslab experiment length --corpus poems` 在唐诗宋词上训练一次。")
                     .in(v.lang)
                     .arg(run.provenance.corpus);
    const std::u32string text = chosenText(v, run, notes);
    const int context = run.result.options.model.context;
    notes << T2("Positions marked * lie beyond the training context (%1 characters): the model never saw them "
                "during training. Rows are queries, columns the keys they attend to; each row sums to 1.",
                "标 * 的位置超出了训练上下文（%1 个字符）：训练时模型从未见过这些位置。"
                "行是查询，列是被关注的键；每行之和为 1。")
                 .in(v.lang)
                 .arg(context);
    std::vector<Output> out;
    vocabulary vocab;
    bool first = true;
    for (const QString& scheme : schemes) {
        ctx.throwIfCancelled();
        vocab = addSchemeMaps(out, run, scheme, text, v, notes, first);
        first = false;
    }
    out.push_back(tokensTable(text, vocab, context));
    out.push_back(Output::textOutput(u"notes"_s, notes.join(u'\n')));
    out.push_back(Output::scalar(u"train_context"_s, double(context)));
    return out;
}

std::vector<OutputSpec> labAttentionOutputs()
{
    QStringList names;
    for (const QString& s : schemeChoices().mid(1)) names << schemeOutputName(s);
    return {
        onlyWhen(
            oneFor(names,
                   matrixOutput(u"attention_{scheme}"_s,
                                T2("the scheme's attention weights in the chosen layer and head (or their mean): "
                                   "row i is how query i spreads its attention over keys 0..i",
                                   "该方案在所选层和头（或各头平均）的注意力权重：第 i 行是查询 i 在键 0..i 上的分配"),
                                T2("rows: query position and character; columns: key position and character; "
                                   "* beyond the training context",
                                   "行：查询的位置和字符；列：键的位置和字符；* 表示超出训练上下文"))),
            schemeShownWhen()),
        onlyWhen(oneFor(names, seriesOutput(u"by_distance_{scheme}"_s,
                                            T2("mean attention weight at each distance i − j between query and key",
                                               "查询与键之间每个距离 i − j 上的平均注意力权重"),
                                            T2("x: distance i − j; y: mean weight", "x：距离 i − j；y：平均权重"))),
                 schemeShownWhen()),
        tableOutput(u"tokens"_s, {u"position"_s, u"character"_s, u"id"_s, u"known"_s, u"beyond_training"_s},
                    T2("the characters given to the model, their ids, whether the vocabulary knows them and whether "
                       "they lie beyond the training context",
                       "交给模型的字符、它们的编号、词表是否认识、是否超出训练上下文")),
        textOutput(u"notes"_s, T2("which run, unknown characters, cuts and what the marks mean",
                                  "数据来自哪次运行、未知字符、截断以及标记的含义")),
        scalarOutput(u"train_context"_s,
                     T2("the context length the models were trained with", "模型训练时的上下文长度")),
    };
}

}  // namespace

ModuleSpec labAttentionModule()
{
    ModuleSpec s;
    s.id = u"lab.attention"_s;
    s.title = T2("Inside a trained model: attention maps", "训练好的模型内部：注意力图");
    s.description =
        T2("Runs a text through the trained models of a stored run (the one chosen in the Training Lab, by default the "
           "latest complete run) and shows where each query position attends, for one layer and head (or the mean "
           "over heads), for one scheme or all of them side by side, and the mean weight by distance. The text can be "
           "longer than the training context: positions beyond it are marked. Characters outside the model's "
           "vocabulary are shown as <unk> and named in the notes.",
           "把一段文本送入已保存运行（训练实验室中选定的那次，默认是最近一次完整的运行）中训练好的模型，"
           "显示某一层、某个头（或各头平均）中每个查询位置关注哪里，可以只看一种方案，也可以把所有方案并排比较，"
           "并给出按距离平均的注意力权重。文本可以比训练上下文更长：超出部分会被标出。"
           "模型词表之外的字符显示为 <unk>，并在注释中列出。");
    s.params = {
        choiceParam(u"scheme"_s, u"all"_s, schemeChoices(),
                    T2("the trained model to look inside, or all of them side by side",
                       "要查看的训练好的模型，或把所有模型并排显示")),
        withFreeText(
            perLanguage(choiceParam(
                u"text"_s, u"sentence"_s, attentionTextChoices(),
                T2("the text: a preset (an English sentence, a repeated sentence, Tang poems, a long "
                   "paragraph, prompt: the run's own held-out prompt) or any text of your own",
                   "文本：预设之一（一句英文、重复的句子、唐诗、一段长文、prompt：这次运行自己的留出提示文本），"
                   "或任意自己输入的文本"))),
            kMaxTextChars),
        intParam(u"layer"_s, 1, 1, 8,
                 T2("the layer (1 = first; more than the model has: its last)",
                    "第几层（1 为第一层；超过模型层数时取最后一层）")),
        intParam(u"head"_s, 0, 0, 16,
                 T2("the head (0 = the mean over heads; more than the model has: its last)",
                    "第几个头（0 为各头平均；超过模型头数时取最后一个）")),
        intParam(u"max_chars"_s, 160, 8, 512,
                 T2("at most this many characters of the text are shown", "最多显示文本的前这么多个字符")),
        perLanguage(choiceParam(u"lang"_s, u"en"_s, {u"en"_s, u"zh"_s},
                                T2("language of the notes and messages", "注释和提示的语言"))),
    };
    s.outputs = labAttentionOutputs();
    s.run = runAttention;
    s.inputStamp = lab::storedRunsStamp;
    return s;
}

}  // namespace poslab::modules
