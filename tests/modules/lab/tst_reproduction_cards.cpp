// SPDX-License-Identifier: Apache-2.0
// tst_reproduction_cards — the reproduction cards (modules/lab/reproduction_cards.h)
// and the module lab.reproduction.
//
// What is checked, and how the expected values are known:
//   * each card's claims on hand-made runs whose numbers are chosen so that
//     every rule's outcome follows by hand from reproduction_cards.h (e.g.
//     ALiBi 3.30 → 3.28 is −0.02 bits: flat; RoPE +0.6 against sinusoidal
//     +0.18: the "RoPE rises less" claim does not hold, as in the course's
//     reference run);
//   * a run without lengths beyond its context, or without a row a claim
//     needs, leaves that claim untested rather than judged;
//   * the convergence step against a second implementation of the smoothed
//     curve (the closed form of the bias-corrected moving average);
//   * the published tables are consistent (a cell per column, lengths per
//     column) and their Δ in the claims is log2 of the printed ratio;
//   * the module on stored runs in a temporary folder: the tables and
//     scalars agree with the cards' checks; with no copy run it says how to
//     make one.
#include "../../shared/test_program.h"
#include "modules/lab/generalization_runs.h"
#include "modules/lab/published_results.h"
#include "modules/lab/reproduction_cards.h"
#include "modules/lab/run_store.h"
#include "modules/registry.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace poslab;
using namespace poslab::modules;

namespace {

const double kNaN = std::nan("");

scheme_result lengthRow(const std::string& name, const std::vector<int>& lengths, const std::vector<double>& bpc)
{
    scheme_result r;
    r.name = name;
    r.scaled = name.find('+') != std::string::npos;
    for (std::size_t k = 0; k < lengths.size(); ++k) {
        length_eval e;
        e.length = lengths[k];
        e.refused = std::isnan(bpc[k]);
        e.bpc = bpc[k];
        e.nats = bpc[k] * std::log(2.0);
        r.evals.push_back(e);
    }
    return r;
}

// Trained at 64, evaluated at 64..512; numbers chosen for the rules (see the top).
length_experiment_result handMadeLengthRun(double ropeAt512)
{
    length_experiment_result r;
    r.options.model.context = 64;
    r.options.eval_lengths = {64, 128, 256, 512};
    const std::vector<int> L = r.options.eval_lengths;
    r.rows.push_back(lengthRow("sinusoidal", L, {3.66, 3.72, 3.79, 3.84}));  // +0.18
    r.rows.push_back(lengthRow("learned", L, {3.56, kNaN, kNaN, kNaN}));
    r.rows.push_back(lengthRow("t5_bias", L, {3.43, 3.52, 3.65, 3.78}));
    r.rows.push_back(lengthRow("alibi", L, {3.30, 3.30, 3.29, 3.28}));  // −0.02: flat
    r.rows.push_back(lengthRow("rope", L, {3.22, 3.25, 3.50, ropeAt512}));
    r.rows.push_back(lengthRow("rope+linear", L, {3.22, 3.85, 4.35, 4.55}));
    return r;
}

QString claimText(const lab::ClaimCheck& c)
{
    return c.claim.en + QStringLiteral(" | ") + c.rule.en + QStringLiteral(" | ") + c.published.en +
           QStringLiteral(" | ") + c.yours.en;
}

}  // namespace

class TestReproductionCards : public QObject {
    Q_OBJECT

private slots:
    void alibiClaimsFollowTheRules()
    {
        // RoPE +0.6 at 512 (above sinusoidal's +0.18): claim 4 fails; ALiBi 3.28 is the best at 512.
        std::vector<lab::ClaimCheck> c = lab::alibiClaims(handMadeLengthRun(3.82));
        QCOMPARE(c.size(), std::size_t(5));
        const bool expectedHeld[] = {true, true, true, false, true};
        for (std::size_t i = 0; i < c.size(); ++i) {
            QVERIFY2(c[i].tested, qPrintable(claimText(c[i])));
            QVERIFY2(c[i].held == expectedHeld[i], qPrintable(claimText(c[i])));
        }
        QCOMPARE(c[0].yours.en, QStringLiteral("3.300 → 3.280 (-0.020)"));
        // The paper's Δ: log2(17.96 / 18.66) = −0.0552 bits per token.
        QVERIFY2(c[0].published.en.contains(QStringLiteral("-0.055")), qPrintable(c[0].published.en));
        // RoPE +0.11 at 512: rises (at least 0.1) and less than sinusoidal.
        c = lab::alibiClaims(handMadeLengthRun(3.33));
        QVERIFY(c[2].held && c[3].held);
        // RoPE +0.05: does not rise.
        c = lab::alibiClaims(handMadeLengthRun(3.27));
        QVERIFY(!c[2].held);
    }

    void nothingBeyondTheContextIsNotTested()
    {
        length_experiment_result r = handMadeLengthRun(3.82);
        r.options.eval_lengths = {64};
        for (scheme_result& row : r.rows) row.evals.resize(1);
        for (const auto& claims : {lab::alibiClaims(r), lab::interpolationClaims(r)})
            for (const lab::ClaimCheck& c : claims) {
                QVERIFY2(!c.tested, qPrintable(claimText(c)));
                QVERIFY(c.yours.en.startsWith(QStringLiteral("not tested")));
            }
    }

    void interpolationWithoutFineTuning()
    {
        // PI above plain RoPE at every longer length: claim 2 fails; above RoPE at 64: claim 3 holds.
        std::vector<lab::ClaimCheck> c = lab::interpolationClaims(handMadeLengthRun(3.82));
        QCOMPARE(c.size(), std::size_t(3));
        QVERIFY(c[0].held);
        QVERIFY(!c[1].held);
        QVERIFY(c[2].held);
        // PI below RoPE everywhere beyond (RoPE 5.0 at 512, PI rows lowered).
        length_experiment_result r = handMadeLengthRun(5.0);
        r.rows.back() = lengthRow("rope+linear", r.options.eval_lengths, {3.22, 3.24, 3.40, 3.60});
        r.rows[4] = lengthRow("rope", r.options.eval_lengths, {3.22, 3.30, 3.60, 5.0});
        c = lab::interpolationClaims(r);
        QVERIFY(c[1].held);
        // Without a rope+linear row: claims 2 and 3 untested.
        r.rows.pop_back();
        c = lab::interpolationClaims(r);
        QVERIFY(c[0].tested && !c[1].tested && !c[2].tested);
    }

    void rotaryVersusLearnedAndConvergence()
    {
        length_experiment_result r = handMadeLengthRun(3.82);
        // learned: 3.56 ≥ T5 3.43 ≥ RoPE 3.22 at 64.
        // Training losses (nats): learned flat at 2.0; RoPE 3.0, 2.6, ..., falling by 0.4 a step.
        for (scheme_result& row : r.rows) {
            if (row.name == "learned") row.train.losses.assign(10, 2.0);
            if (row.name == "rope")
                for (int i = 0; i < 10; ++i) row.train.losses.push_back(3.0 - 0.4 * i);
        }
        // The smoothed curve by its closed form: Σ_j 0.1·0.9^(i−j)·x_j / (1 − 0.9^(i+1)).
        const std::vector<double>& x = r.rows[4].train.losses;
        int expected = 0;
        for (int i = 0; i < 10 && expected == 0; ++i) {
            double s = 0.0;
            for (int j = 0; j <= i; ++j) s += 0.1 * std::pow(0.9, i - j) * x[std::size_t(j)];
            if (s / (1.0 - std::pow(0.9, i + 1)) <= 2.0) expected = i + 1;
        }
        QVERIFY(expected > 1 && expected < 10);
        QCOMPARE(lab::firstStepReaching(r, QStringLiteral("rope"), 2.0), expected);
        const std::vector<lab::ClaimCheck> c = lab::rotaryVersusLearnedClaims(r);
        QCOMPARE(c.size(), std::size_t(3));
        QVERIFY(c[0].held && c[1].held && c[2].held);
        QVERIFY2(c[2].yours.en.startsWith(QStringLiteral("step %1 of 10").arg(expected)), qPrintable(c[2].yours.en));
        QCOMPARE(lab::firstStepReaching(r, QStringLiteral("rope"), 0.1), 0);  // never
    }

    void nopeOnACopyRun()
    {
        generalization_result r;
        r.options.train_max = 4;
        r.options.eval_lengths = {2, 4, 6, 8, 10};  // beyond: 6 and 8 (10 > 2 × 4)
        auto row = [&](const char* name, std::vector<double> acc, bool learned) {
            generalization_scheme_result s;
            s.name = name;
            s.learned = learned;
            for (std::size_t k = 0; k < acc.size(); ++k) {
                generalization_eval e;
                e.length = r.options.eval_lengths[k];
                e.accuracy = acc[k];
                s.evals.push_back(e);
            }
            r.rows.push_back(s);
        };
        row("none", {1.0, 1.0, 0.9, 0.5, 0.9}, true);  // mean 0.7 (10 left out)
        row("rope", {1.0, 1.0, 0.1, 0.0, 0.0}, true);  // 0.05
        row("sinusoidal", {0.5, 0.4, 0.9, 0.9, 0.9}, false);
        row("alibi", {1.0, 1.0, 0.3, 0.1, 0.0}, true);  // 0.2
        QCOMPARE(lab::meanAccuracyBeyond(r, QStringLiteral("none")), 0.7);
        QVERIFY(std::isnan(lab::meanAccuracyBeyond(r, QStringLiteral("sinusoidal"))));
        const std::vector<lab::ClaimCheck> c = lab::nopeClaims(r);
        QCOMPARE(c.size(), std::size_t(3));
        QVERIFY(c[0].tested && c[0].held);
        QVERIFY(!c[1].tested);  // sinusoidal did not learn the task
        QVERIFY(c[2].tested && c[2].held);
        QCOMPARE(c[0].yours.en, QStringLiteral("NoPE 70.0% vs RoPE 5.0%"));
        QCOMPARE(c[0].rule.en, QStringLiteral("mean exact match over n = 5..8"));
        // The paper's means over 24..40: NoPE (0.722 + 0.499 + 0.025 + 0) / 4 = 0.3115, printed to one
        // decimal of a percent (in binary floating point 31.15 lies just below: 31.1).
        QVERIFY2(c[0].published.en.startsWith(QStringLiteral("NoPE 31.1% vs RoPE 0.0%")),
                 qPrintable(c[0].published.en));
    }

    void publishedTablesAreWellFormed()
    {
        for (const lab::PublishedTable* t :
             {&lab::alibiExtrapolationTable(), &lab::nopeCopyTable(), &lab::rotaryVersusLearnedTable(),
              &lab::interpolationWithoutFineTuningTable()}) {
            QVERIFY(!t->source.en.isEmpty() && !t->source.zh.isEmpty());
            QVERIFY(!t->setting.en.isEmpty() && !t->setting.zh.isEmpty());
            if (!t->lengths.empty()) {
                QCOMPARE(t->lengths.size(), std::size_t(t->columns.size()));
                QCOMPARE(t->lengths.front(), t->trainLength);
            }
            for (const lab::PublishedRow& r : t->rows) QCOMPARE(r.cells.size(), t->columns.size());
        }
        const lab::PublishedRow* none = lab::interpolationWithoutFineTuningTable().row(QStringLiteral("rope"));
        QVERIFY(none && std::isnan(none->value(1)));  // "> 1000" is text, never a number
        QCOMPARE(none->value(0), 7.20);
    }

    void moduleOnStoredRuns()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const ModuleSpec* spec = Registry::builtin().find(QStringLiteral("lab.reproduction"));
        QVERIFY(spec);
        RunContext ctx;
        ctx.storedRunsDirectory = dir.path();
        // No copy run: the nope card says how to make one.
        try {
            runModule(*spec, parseParams(*spec, {QStringLiteral("card=nope")}), ctx);
            QFAIL("no copy run should be refused");
        } catch (const NeedsAction& e) {
            QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("experiment generalize --task copy")));
        }
        // A stored length run: the alibi card's scalars are the cards' own count.
        lab::RunProvenance pv;
        pv.source = QStringLiteral("cli");
        pv.command = QStringLiteral("poslab experiment length (test)");
        pv.corpus = QStringLiteral("fortunes");
        pv.finishedUtc = QDateTime::currentDateTimeUtc();
        length_experiment_result run = handMadeLengthRun(3.82);
        run.options.schemes = {LM_POSITION_SINUSOIDAL, LM_POSITION_LEARNED, LM_POSITION_T5_BIAS, LM_POSITION_ALIBI,
                               LM_POSITION_ROPE};
        run.vocab_size = 90;
        util::Text2 error;
        QVERIFY2(!lab::saveRun(run, std::vector<QString>(run.rows.size()), pv, &error, dir.path()).isEmpty(),
                 qPrintable(error.en));
        for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
            const std::vector<Output> out = runModule(
                *spec, parseParams(*spec, {QStringLiteral("card=alibi"), QStringLiteral("lang=") + lang}), ctx);
            auto find = [&](const QString& name) -> const Output* {
                for (const Output& o : out)
                    if (o.name == name) return &o;
                return nullptr;
            };
            QVERIFY(find(QStringLiteral("claims")) && find(QStringLiteral("published")) &&
                    find(QStringLiteral("yours")) && find(QStringLiteral("paper_alibi")) &&
                    find(QStringLiteral("yours_alibi")));
            QCOMPARE(find(QStringLiteral("claims_tested"))->value, 5.0);
            QCOMPARE(find(QStringLiteral("claims_held"))->value, 4.0);
            QCOMPARE(find(QStringLiteral("claims"))->tableRows[3][1].toString(),
                     lang == u"en" ? QStringLiteral("did not hold") : QStringLiteral("不成立"));
            // The paper's series: log2 of the perplexity ratio, e.g. sinusoidal at ×8: log2(284.88 / 19.34).
            const Output* sin = find(QStringLiteral("paper_sinusoidal"));
            QVERIFY(std::fabs(sin->y.back() - std::log2(284.88 / 19.34)) < 1e-12);
            QVERIFY(std::fabs(sin->x.back() - 8024.0 / 1024.0) < 1e-12);
        }
    }
};

POSLAB_TEST_GUILESS_MAIN(TestReproductionCards)
#include "tst_reproduction_cards.moc"
