// SPDX-License-Identifier: Apache-2.0
#include "ui/lab/training_lab_run.h"

#include "core/common.h"
#include "core/matmul.h"
#include "lm/synthetic_tasks.h"
#include "lm/text_corpus.h"
#include "modules/error_messages.h"
#include "modules/lab/option_messages.h"

#include <QFileInfo>
#include <QMutex>
#include <QMutexLocker>
#include <QRegularExpression>
#include <QThread>

#include <algorithm>
#include <cmath>

namespace poslab::ui {

// ---------------------------------------------------------------- settings

bool isBuiltInCorpus(const QString& name)
{
    const std::string n = name.toStdString();
    return poslab::is_named_corpus(n) || poslab::is_synthetic_corpus(n);
}

int LabSettings::defaultThreads()
{
    return std::clamp(QThread::idealThreadCount(), 1, 8);
}

LabSettings LabSettings::quickPreset()
{
    // The command line's budgets come from one place (lm/experiment.h).
    LabSettings s = fromOptions(poslab::length_experiment_preset(true), QStringLiteral("fortunes"));
    s.threads = defaultThreads();
    return s;
}

LabSettings LabSettings::defaultPreset()
{
    LabSettings s = fromOptions(poslab::length_experiment_preset(false), QStringLiteral("fortunes"));
    s.threads = defaultThreads();
    return s;
}

poslab::length_experiment_options LabSettings::toOptions() const
{
    poslab::length_experiment_options x;
    x.model.d_model = dModel;
    x.model.n_heads = heads;
    x.model.n_layers = layers;
    x.model.context = context;
    x.model.seed = seed;
    x.model.num_threads = threads;
    x.train.batch_size = batch;
    x.train.steps = steps;
    x.train.max_lr = float(learningRate);
    x.schemes = schemes;
    x.eval_lengths = evalLengths;
    x.eval_max_tokens = std::size_t(std::max<qint64>(0, evalCharacters));
    x.rope_scalings = ropeScalings;
    poslab::derive_length_experiment_schedule(x);  // as the command line does
    return x;
}

LabSettings LabSettings::fromOptions(const poslab::length_experiment_options& o, const QString& corpus)
{
    LabSettings s;
    s.corpus = corpus;
    s.schemes = o.schemes;
    s.ropeScalings = o.rope_scalings;
    s.dModel = o.model.d_model;
    s.heads = o.model.n_heads;
    s.layers = o.model.n_layers;
    s.context = o.model.context;
    s.batch = o.train.batch_size;
    s.steps = o.train.steps;
    s.evalLengths = o.eval_lengths;
    s.evalCharacters = qint64(o.eval_max_tokens);
    // Through the shortest decimal form of the float, so 0.003f reads 0.003.
    s.learningRate = QString::number(o.train.max_lr, 'g', 7).toDouble();
    s.seed = o.model.seed;
    s.threads = o.model.num_threads;
    return s;
}

QString schemeId(poslab::lm_position p)
{
    return QString::fromLatin1(poslab::lm_position_name(p));
}

QString LabSettings::corpusLabel() const
{
    if (isBuiltInCorpus(corpus)) return corpus;
    return QFileInfo(corpus).fileName();
}

bool LabSettings::isQuick() const
{
    LabSettings q = quickPreset();
    q.corpus = corpus;
    q.threads = threads;
    return *this == q;
}

QString LabSettings::commandLine() const
{
    QStringList head{QStringLiteral("poslab experiment length")};
    if (corpus != u"fortunes") {
        QString c = corpus;
        if (!isBuiltInCorpus(corpus) && c.contains(QRegularExpression(QStringLiteral("[^\\w./-]"))))
            c = u'\'' + c.replace(u'\'', QStringLiteral("'\\''")) + u'\'';
        head << QStringLiteral("--corpus") << c;
    }
    // The options that differ from a preset; the shorter of the two spellings
    // (from the defaults, or from --quick) is the more readable.
    auto differences = [this](const LabSettings& base) {
        QStringList a;
        auto add = [&](const char* name, long long v, long long def) {
            if (v != def) a << QString::fromLatin1(name) << QString::number(v);
        };
        add("--d-model", dModel, base.dModel);
        add("--heads", heads, base.heads);
        add("--layers", layers, base.layers);
        add("--train-ctx", context, base.context);
        add("--batch", batch, base.batch);
        add("--steps", steps, base.steps);
        add("--eval-tokens", evalCharacters, base.evalCharacters);
        if (float(learningRate) != float(base.learningRate))
            a << QStringLiteral("--lr") << QString::number(learningRate, 'g', 7);
        if (seed != base.seed) a << QStringLiteral("--seed") << QString::number(seed);
        // The command line evaluates at 1, 2, 4 and 8 times the context unless told otherwise.
        const std::vector<int> derived{context, 2 * context, 4 * context, 8 * context};
        if (evalLengths != derived) {
            QStringList l;
            for (int L : evalLengths) l << QString::number(L);
            a << QStringLiteral("--eval-lengths") << l.join(u',');
        }
        if (schemes != poslab::lm_all_positions()) {
            QStringList l;
            for (poslab::lm_position p : schemes) l << schemeId(p);
            a << QStringLiteral("--schemes") << l.join(u',');
        }
        return a;
    };
    const QStringList fromDefault = differences(defaultPreset());
    const QStringList fromQuick = QStringList{QStringLiteral("--quick")} + differences(quickPreset());
    QStringList a = head + (fromQuick.size() < fromDefault.size() ? fromQuick : fromDefault);
    a << QStringLiteral("--threads") << QString::number(threads);
    return a.join(u' ');
}

// ---------------------------------------------------------------- the run

namespace {

// A corpus as the command line loads it (lab_command_common.cpp load_data): a
// synthetic task is generated with its fixed seed and its held-out answers
// are also scored by exact match.
struct LabData {
    poslab::encoded_corpus data;
    bool synthetic = false;
    std::vector<poslab::answer_span> answers;  // synthetic tasks only
};

LabData loadLabData(const std::string& corpus)
{
    LabData d;
    d.synthetic = poslab::is_synthetic_corpus(corpus);
    const poslab::text_corpus text =
        d.synthetic ? poslab::synthetic_corpus(poslab::parse_synthetic_task(corpus)) : poslab::load_corpus(corpus);
    d.data = poslab::encode_corpus(text);
    if (d.synthetic)
        d.answers = poslab::synthetic_answer_spans(poslab::parse_synthetic_task(corpus), d.data.held_out, d.data.vocab);
    return d;
}

// One progress report of the core, into the snapshot the GUI reads.
void recordProgress(LabSnapshot& s, const poslab::experiment_progress& p)
{
    constexpr double kLn2 = 0.69314718055994530942;
    if (p.scheme_index >= int(s.curves.size())) {
        s.curves.resize(std::size_t(p.scheme_index) + 1);
        s.curveSchemes.resize(p.scheme_index + 1);
        s.curves.back().reserve(std::size_t(p.train.total_steps));
    }
    s.curveSchemes[p.scheme_index] = QString::fromStdString(p.scheme);
    s.curves[std::size_t(p.scheme_index)].push_back(QPointF(p.train.step, p.train.smoothed_loss / kLn2));
    s.schemeIndex = p.scheme_index;
    s.schemeCount = p.scheme_count;
    s.scheme = QString::fromStdString(p.scheme);
    s.train = p.train;
    // The command line's estimate: this scheme's rest plus as long again per
    // scheme still to come.
    const double perScheme = p.train.step > 0 ? p.train.elapsed_seconds / p.train.step * p.train.total_steps : 0.0;
    s.etaSeconds = p.train.eta_seconds + perScheme * (p.scheme_count - p.scheme_index - 1);
    s.phase = p.train.step >= p.train.total_steps ? LabSnapshot::Evaluating : LabSnapshot::Training;
}

// Each trained model's continuation of the held-out prompt, and the prompt, as text.
void decodeSamples(LabOutcome& out, const poslab::vocabulary& vocab)
{
    out.samples.reserve(out.result.rows.size());
    for (const poslab::scheme_result& row : out.result.rows) {
        const std::u32string t = poslab::decode_ids(vocab, row.sample.data(), row.sample.size());
        out.samples.push_back(QString::fromStdU32String(t));
    }
    const auto& prompt = out.result.sample_prompt;
    out.samplePrompt = QString::fromStdU32String(poslab::decode_ids(vocab, prompt.data(), prompt.size()));
}

}  // namespace

struct LabRun::Shared {
    std::atomic<bool> cancel{false};
    std::atomic<bool> stop{false};
    mutable QMutex mutex;
    LabSnapshot snap;    // under mutex
    LabOutcome outcome;  // written by the worker before it ends
};

LabRun::LabRun(QObject* parent) : QObject(parent) {}

LabRun::~LabRun()
{
    stopAndWait();
}

namespace {

// The options as the Training Lab's form names them (the labels' words).
poslab::modules::Text2 labFormNames(const std::string& field)
{
    using poslab::modules::T2;
    if (field == "context") return T2("the training context", "训练上下文");
    if (field == "d_model") return T2("the width d_model", "宽度 d_model");
    if (field == "n_heads") return T2("the number of heads", "注意力头数");
    if (field == "n_layers") return T2("the number of layers", "层数");
    if (field == "steps") return T2("the steps per scheme", "每种方案的步数");
    if (field == "batch_size") return T2("the batch", "批量");
    if (field == "max_lr") return T2("the learning rate", "学习率");
    if (field == "eval_length") return T2("an evaluation length", "评估长度");
    return {};
}

}  // namespace

QString LabRun::windowLanguage()
{
    const QString probe = LabRun::tr("These settings cannot be trained: %1");
    return probe == QLatin1String("These settings cannot be trained: %1") ? QStringLiteral("en") : QStringLiteral("zh");
}

QString LabRun::validate(const LabSettings& s)
{
    if (s.schemes.empty()) return tr("Choose at least one position scheme to train.");
    if (s.corpus.trimmed().isEmpty()) return tr("Choose a corpus or a text file to train on.");
    if (poslab::is_synthetic_corpus(s.corpus.toStdString())) {
        // Generated by the program: always there.
    } else if (poslab::is_named_corpus(s.corpus.toStdString())) {
        try {
            poslab::find_corpus_files(s.corpus.toStdString());
        } catch (const std::exception& e) {
            // The core's message names the Debian package to install.
            return tr("The corpus is not installed: %1")
                .arg(poslab::modules::errorMessage(e, poslab::modules::T2("%1", "%1")).in(windowLanguage()));
        }
    } else {
        const QFileInfo f(s.corpus);
        if (!f.exists()) return tr("The text file %1 does not exist.").arg(s.corpus);
        if (!f.isFile() || !f.isReadable()) return tr("The text file %1 cannot be read.").arg(s.corpus);
    }
    if (s.heads < 1 || s.dModel < 1 || s.dModel % s.heads != 0)
        return tr("The model width (%1) must be a multiple of the number of heads (%2): each head gets an equal "
                  "share of the channels.")
            .arg(s.dModel)
            .arg(s.heads);
    const bool rope = std::find(s.schemes.begin(), s.schemes.end(), poslab::LM_POSITION_ROPE) != s.schemes.end();
    if (rope && (s.dModel / s.heads) % 2 != 0)
        return tr("RoPE rotates pairs of channels, so the head width (model width %1 / %2 heads = %3) must be even.")
            .arg(s.dModel)
            .arg(s.heads)
            .arg(s.dModel / s.heads);
    const bool sinusoidal =
        std::find(s.schemes.begin(), s.schemes.end(), poslab::LM_POSITION_SINUSOIDAL) != s.schemes.end();
    if (sinusoidal && s.dModel % 2 != 0)
        return tr("The sinusoidal table pairs a sine with a cosine, so the model width (%1) must be even.")
            .arg(s.dModel);
    if (s.evalLengths.empty()) return tr("Give at least one evaluation length, e.g. 64,128,256,512.");
    for (std::size_t i = 0; i < s.evalLengths.size(); ++i) {
        if (s.evalLengths[i] < 1 || s.evalLengths[i] > 65536)
            return tr("The evaluation length %1 is not allowed; lengths go from 1 to 65536.").arg(s.evalLengths[i]);
        if (i > 0 && s.evalLengths[i] <= s.evalLengths[i - 1])
            return tr("List the evaluation lengths in increasing order, each once.");
    }
    // Then everything the core checks (ranges, sizes). The vocabulary is not
    // known before the corpus is loaded; 256 stands for it here, the worker
    // checks again with the real one.
    const poslab::lab_option_problem refused = poslab::check_length_experiment(s.toOptions(), 256);
    if (refused.ok()) return {};
    // The core's refusal is worded in the language tr() gave the sentence around it.
    return tr("These settings cannot be trained: %1")
        .arg(poslab::modules::labOptionMessage(refused, labFormNames).in(windowLanguage()));
}

bool LabRun::isRunning() const
{
    return m_thread != nullptr;
}

void LabRun::cancel()
{
    if (!m_shared) return;
    m_shared->cancel.store(true);
    QMutexLocker lock(&m_shared->mutex);
    m_shared->snap.cancelRequested = true;
}

void LabRun::stopNow()
{
    if (!m_shared) return;
    m_shared->stop.store(true);
    m_shared->cancel.store(true);
    QMutexLocker lock(&m_shared->mutex);
    m_shared->snap.cancelRequested = true;
    m_shared->snap.stopRequested = true;
}

LabSnapshot LabRun::snapshot() const
{
    if (!m_shared) return {};
    QMutexLocker lock(&m_shared->mutex);
    return m_shared->snap;
}

bool LabRun::start(const LabSettings& settings, QString* error)
{
    if (m_thread) {
        if (error) *error = tr("A training run is already going on.");
        return false;
    }
    const QString problem = validate(settings);
    if (!problem.isEmpty()) {
        if (error) *error = problem;
        return false;
    }
    m_settings = settings;
    m_outcome = {};
    m_shared = std::make_shared<Shared>();
    m_shared->snap.phase = LabSnapshot::Loading;
    auto shared = m_shared;
    const poslab::length_experiment_options options = settings.toOptions();
    const std::string corpus = settings.corpus.toStdString();
    const int threads = settings.threads;

    const QString lang = windowLanguage();
    m_thread = QThread::create([shared, options, corpus, threads, lang] {
        LabOutcome out;
        try {
            const LabData d = loadLabData(corpus);
            const int V = int(d.data.vocab.size());
            {
                QMutexLocker lock(&shared->mutex);
                shared->snap.trainCharacters = qint64(d.data.train.size());
                shared->snap.heldOutCharacters = qint64(d.data.held_out.size());
                shared->snap.vocabulary = V;
                shared->snap.phase = LabSnapshot::Training;
                shared->snap.schemeCount = int(options.schemes.size());
            }
            poslab::validate_length_experiment(options, V);
            if (d.data.train.size() < std::size_t(options.model.context) + 1)
                throw poslab::core_error("the training text has " + std::to_string(d.data.train.size()) +
                                         " characters, fewer than the training context + 1");
            // BLAS's own threads are process-wide; the command line sets them the same way.
            poslab::blas_set_num_threads(threads);
            out.result = poslab::run_length_experiment(
                options, d.data.train, d.data.held_out, V,
                [&](const poslab::experiment_progress& p) {
                    QMutexLocker lock(&shared->mutex);
                    recordProgress(shared->snap, p);
                },
                &shared->cancel, d.synthetic ? &d.answers : nullptr, &shared->stop);
            decodeSamples(out, d.data.vocab);
            out.vocabulary = d.data.vocab;
            out.ok = true;
        } catch (const std::exception& e) {
            out.ok = false;
            // A coded error (a corpus file, the memory budget) in the window's language.
            out.error = poslab::modules::errorMessage(e, poslab::modules::T2("%1", "%1")).in(lang);
        }
        QMutexLocker lock(&shared->mutex);
        shared->outcome = std::move(out);
        shared->snap.phase = LabSnapshot::Finished;
    });
    m_thread->setObjectName(QStringLiteral("poslab-training-lab"));
    connect(m_thread, &QThread::finished, this, &LabRun::collect);
    m_thread->start(QThread::LowPriority);  // the GUI thread keeps the upper hand on a busy machine
    return true;
}

void LabRun::collect()
{
    if (!m_thread) return;
    m_thread->wait();
    delete m_thread;
    m_thread = nullptr;
    {
        QMutexLocker lock(&m_shared->mutex);
        m_outcome = std::move(m_shared->outcome);
    }
    emit finished();
}

void LabRun::stopAndWait()
{
    if (!m_thread) return;
    stopNow();
    m_thread->wait();
    collect();
}

}  // namespace poslab::ui
