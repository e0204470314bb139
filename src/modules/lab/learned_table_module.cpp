// SPDX-License-Identifier: Apache-2.0
// learned_table_module.cpp — lab.learned_table: the position table a stored
// run's learned model trained (GPT-2's wpe, (T, C) with T = the training
// context), next to the sinusoidal table of the same size and to the table
// the same model started from.
//
// Three tables, each (T, C):
//   trained     the learned model's wpe, as the run stored it;
//   sinusoidal  Vaswani's table (interleaved layout, base 10000) — the one
//               the sinusoidal model adds, without its scale (cosine
//               similarity and explained variance do not depend on a scale);
//   initial     the learned model's wpe before training: lm_model(config)
//               draws every parameter from rng(config.seed) (lm/model.h), and
//               the stored config keeps the run's seed, so this is the very
//               table training started from (N(0, 0.02²) noise).
// For each: the cosine similarity of every pair of positions, its mean at
// each distance, and the principal components (lm/position_table.h).
#include "modules/lab/lab_model_access.h"
#include "modules/lab/run_list.h"
#include "modules/registry.h"

#include "core/sinusoidal.h"
#include "lm/model.h"
#include "lm/position_table.h"

#include <algorithm>
#include <cstring>

namespace poslab::modules {

using namespace Qt::StringLiterals;

namespace {

constexpr int kMaxComponents = 6;

struct PositionTables {
    int T = 0, C = 0;
    std::vector<float> trained, sinusoidal, initial;
};

std::vector<float> wpeOf(const lm_model& model)
{
    const lm_param_info& p = model.param("wpe");
    return std::vector<float>(model.params() + p.offset, model.params() + p.offset + p.size);
}

PositionTables positionTables(const lab::StoredRun& run, const QString& lang)
{
    if (!trainedSchemesWithModels(run, lang).contains(u"learned"_s))
        throw NeedsAction(T2("Run %1 did not train the learned scheme, so it has no learned position table. Choose "
                             "a run that includes learned, or make one (`poslab experiment length --quick` trains "
                             "every scheme).",
                             "运行 %1 没有训练 learned 方案，因此没有可学习的位置表。请选择包含 learned 的运行，"
                             "或重新训练一次（`poslab experiment length --quick` 会训练所有方案）。")
                              .in(lang)
                              .arg(run.id)
                              .toStdString());
    const lm_checkpoint ck = loadShownModel(run, u"learned"_s, lang);
    PositionTables t;
    t.T = ck.model->config().context;
    t.C = ck.model->config().d_model;
    t.trained = wpeOf(*ck.model);
    t.initial = wpeOf(lm_model(ck.model->config()));
    t.sinusoidal.resize(std::size_t(t.T) * t.C);
    sinusoidal_table(std::size_t(t.T), std::size_t(t.C), 10000.0, sinusoidal_layout_interleaved, 0.0,
                     t.sinusoidal.data());
    return t;
}

const std::vector<float>& tableNamed(const PositionTables& t, const QString& name)
{
    return name == u"sinusoidal"_s ? t.sinusoidal : name == u"initial"_s ? t.initial : t.trained;
}

const QStringList& tableNames()
{
    static const QStringList names{u"trained"_s, u"sinusoidal"_s, u"initial"_s};
    return names;
}

// The explained-variance table: one row per component, one column per table,
// and a last row with the components' sum.
Output explainedTable(const std::vector<table_pca>& pcas, int components)
{
    std::vector<QVariantList> rows;
    std::vector<double> sums(pcas.size(), 0.0);
    for (int k = 0; k < components; ++k) {
        QVariantList row{QString::number(k + 1)};
        for (std::size_t i = 0; i < pcas.size(); ++i) {
            row << pcas[i].explained[std::size_t(k)];
            sums[i] += pcas[i].explained[std::size_t(k)];
        }
        rows.push_back(row);
    }
    QVariantList total{u"1–%1"_s.arg(components)};
    for (double s : sums) total << s;
    rows.push_back(total);
    return Output::table(u"explained_variance"_s, QStringList{u"component"_s} + tableNames(), std::move(rows));
}

QString learnedTableReading(const std::vector<table_pca>& pcas, const std::vector<std::vector<double>>& byDistance,
                            const QString& lang)
{
    auto at1 = [](const std::vector<double>& d) { return d.size() > 1 ? d[1] : 1.0; };
    QString text =
        T2("Neighbouring positions (distance 1) have mean cosine similarity %1 in the trained table, %2 in the "
           "sinusoidal one and %3 in the initial noise; the first principal component explains %4 of the trained "
           "table's variance (%5 sinusoidal, %6 initial).",
           "相邻位置（距离 1）的平均余弦相似度：训练后的表为 %1，正弦表为 %2，初始噪声为 %3；"
           "第一主成分解释了训练后位置表 %4 的方差（正弦表 %5，初始表 %6）。")
            .in(lang)
            .arg(QString::number(at1(byDistance[0]), 'f', 3), QString::number(at1(byDistance[1]), 'f', 3),
                 QString::number(at1(byDistance[2]), 'f', 3))
            .arg(QString::number(100 * pcas[0].explained[0], 'f', 1) + u'%',
                 QString::number(100 * pcas[1].explained[0], 'f', 1) + u'%',
                 QString::number(100 * pcas[2].explained[0], 'f', 1) + u'%');
    // What the numbers say depends on the run: say it only when they say it.
    const bool ordered = at1(byDistance[0]) > at1(byDistance[2]) + 0.1;
    text += u' ' + (ordered ? T2("Training turned independent noise into a table whose nearby rows are alike: the "
                                 "model learned that neighbouring positions belong together.",
                                 "训练把相互独立的噪声变成了相邻行相似的表：模型学到了相邻的位置应该相近。")
                            : T2("Neighbouring rows are hardly more alike than in the initial noise: this run's "
                                 "training did little to the table (a short run?).",
                                 "相邻行并不比初始噪声更相似：这次训练几乎没有改变位置表（训练太短？）。"))
                       .in(lang);
    return text;
}

std::vector<Output> runLearnedTable(const Params& p, const RunContext& ctx)
{
    const QString lang = p.getChoice(u"lang"_s);
    const QString shownTable = p.getChoice(u"table"_s);
    const ShownRun shown = shownRun(ctx, lang);
    const PositionTables t = positionTables(shown.run, lang);
    const int components = std::min<int>(int(p.getInt(u"components"_s)), t.C);
    std::vector<Output> out;
    std::vector<table_pca> pcas;
    std::vector<std::vector<double>> byDistance;
    for (const QString& name : tableNames()) {
        ctx.throwIfCancelled();
        const std::vector<float>& table = tableNamed(t, name);
        std::vector<double> cosine = table_cosine_similarity(table.data(), t.T, t.C);
        byDistance.push_back(similarity_by_distance(cosine, t.T));
        pcas.push_back(principal_components(table.data(), t.T, t.C, components));
        if (name == shownTable) out.push_back(Output::matrix(u"similarity"_s, t.T, t.T, std::move(cosine)));
    }
    for (std::size_t i = 0; i < byDistance.size(); ++i)
        out.push_back(Output::series(u"by_distance_"_s + tableNames()[qsizetype(i)], rangeDoubles(byDistance[i].size()),
                                     byDistance[i]));
    const table_pca& shownPca = pcas[std::size_t(tableNames().indexOf(shownTable))];
    for (int k = 0; k < components; ++k)
        out.push_back(Output::series(u"pc"_s + QString::number(k + 1), rangeDoubles(std::size_t(t.T)),
                                     shownPca.scores[std::size_t(k)]));
    out.push_back(explainedTable(pcas, components));
    out.push_back(Output::textOutput(u"reading"_s, learnedTableReading(pcas, byDistance, lang)));
    out.push_back(Output::textOutput(u"notes"_s, runNote(shown, lang)));
    out.push_back(Output::scalar(u"train_context"_s, double(t.T)));
    return out;
}

std::vector<OutputSpec> labLearnedTableOutputs()
{
    QStringList pcs;
    for (int k = 1; k <= kMaxComponents; ++k) pcs << QString::number(k);
    return {
        matrixOutput(u"similarity"_s,
                     T2("cosine similarity of every pair of positions in the chosen table",
                        "所选位置表中每对位置向量的余弦相似度"),
                     T2("rows and columns: position", "行和列：位置")),
        oneFor(tableNames(),
               seriesOutput(u"by_distance_{table}"_s,
                            T2("mean cosine similarity of positions d apart, for each table",
                               "相距 d 的位置之间的平均余弦相似度（每个表一条）"),
                            T2("x: distance d; y: mean cosine similarity", "x：距离 d；y：平均余弦相似度"))),
        onlyWhen(oneFor(pcs, seriesOutput(
                                 u"pc{k}"_s,
                                 T2("the chosen table's k-th principal component over position",
                                    "所选位置表的第 k 个主成分随位置的变化"),
                                 T2("x: position; y: projection on the component", "x：位置；y：在该主成分上的投影"))),
                 T2("pc1 .. pc{components}", "pc1 .. pc{components}")),
        tableOutput(u"explained_variance"_s, QStringList{u"component"_s} + tableNames(),
                    T2("the share of variance each principal component explains, per table; the last row sums them",
                       "每个主成分解释的方差比例（每个表一列）；最后一行为它们之和")),
        textOutput(u"reading"_s, T2("what the numbers say, in a few sentences", "用几句话说明这些数字")),
        textOutput(u"notes"_s, T2("which run the table comes from", "位置表来自哪次运行")),
        scalarOutput(u"train_context"_s, T2("the table's rows: the training context", "位置表的行数，即训练上下文")),
    };
}

}  // namespace

ModuleSpec labLearnedTableModule()
{
    ModuleSpec s;
    s.id = u"lab.learned_table"_s;
    s.title = T2("Inside a trained model: the learned position table", "训练好的模型内部：可学习的位置表");
    s.description =
        T2("Reads the position table the learned model of a stored run trained (GPT-2's wpe: one vector per position "
           "up to the training context) and compares it with the sinusoidal table of the same size and with the "
           "random table it started from: the cosine similarity between positions, its mean by distance, and the "
           "principal components with the variance each explains.",
           "读取已保存运行中 learned 模型训练出的位置表（GPT-2 的 wpe：训练上下文内每个位置一个向量），"
           "并与同样大小的正弦位置表、以及它训练前的随机初始表比较：位置之间的余弦相似度、按距离平均的相似度，"
           "以及主成分和各自解释的方差。");
    s.params = {
        choiceParam(u"table"_s, u"trained"_s, tableNames(),
                    T2("the table the similarity map and the components show: trained, sinusoidal or initial",
                       "相似度图和主成分所显示的位置表：trained（训练后）、sinusoidal（正弦）或 initial（初始）")),
        intParam(u"components"_s, 3, 1, kMaxComponents,
                 T2("how many principal components to show", "显示多少个主成分")),
        perLanguage(choiceParam(u"lang"_s, u"en"_s, {u"en"_s, u"zh"_s},
                                T2("language of the notes and messages", "注释和提示的语言"))),
    };
    s.outputs = labLearnedTableOutputs();
    s.run = runLearnedTable;
    s.inputStamp = lab::storedRunsStamp;
    return s;
}

}  // namespace poslab::modules
