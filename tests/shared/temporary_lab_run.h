// SPDX-License-Identifier: Apache-2.0
// temporary_lab_run.h — for tests that run every module or every run block of
// the course: lab.length_results (the Experiments chapter) reads the latest
// stored training run and, by design, fails with instructions when there is
// none. TemporaryLabRun points XDG_DATA_HOME at a temporary folder for its
// lifetime (restoring the old value afterwards, so the user's data folder is
// never read or written) and stores one real run there: all six schemes and
// the RoPE scalings, trained for a few steps by run_length_experiment on the
// synthetic "copy" corpus (as `poslab experiment length --corpus copy` builds
// it: V = 19), evaluated at 8 and 16 with context 8 (so the learned table
// refuses 16), with every model and its vocabulary (so lab.attention and
// lab.position_loss can give them text). It takes well under a second.
#pragma once

#include "lm/experiment.h"
#include "lm/generalization_experiment.h"
#include "lm/synthetic_tasks.h"
#include "lm/text_corpus.h"
#include "modules/lab/generalization_runs.h"
#include "modules/lab/run_store.h"

#include <QDateTime>
#include <QTemporaryDir>
#include <QtGlobal>

#include <cstdint>
#include <vector>

class TemporaryLabRun {
public:
    explicit TemporaryLabRun(const QString& command)
        : m_oldHome(qgetenv("XDG_DATA_HOME")), m_hadHome(qEnvironmentVariableIsSet("XDG_DATA_HOME"))
    {
        if (!m_dir.isValid()) {
            m_error = poslab::util::Text2::same(QStringLiteral("cannot create a temporary XDG_DATA_HOME"));
            return;
        }
        qputenv("XDG_DATA_HOME", m_dir.path().toUtf8());
        poslab::length_experiment_options o;
        o.model.d_model = 16;
        o.model.n_heads = 2;
        o.model.n_layers = 1;
        o.model.context = 8;
        o.train.steps = 3;
        o.train.batch_size = 2;
        o.train.warmup_steps = 1;
        o.eval_lengths = {8, 16};
        o.eval_max_tokens = 64;
        const poslab::encoded_corpus data = poslab::encode_corpus(poslab::synthetic_corpus(poslab::synthetic_copy));
        const poslab::length_experiment_result r =
            poslab::run_length_experiment(o, data.train, data.held_out, int(data.vocab.size()));
        poslab::lab::RunProvenance pv;
        pv.source = QStringLiteral("cli");
        pv.command = command;
        pv.corpus = QStringLiteral("copy");
        pv.finishedUtc = QDateTime::currentDateTimeUtc();
        pv.machine = poslab::lab::currentMachine(1);
        m_path = poslab::lab::saveRun(r, std::vector<QString>(r.rows.size()), pv, &m_error, {}, &data.vocab);
    }
    ~TemporaryLabRun()
    {
        if (m_hadHome)
            qputenv("XDG_DATA_HOME", m_oldHome);
        else
            qunsetenv("XDG_DATA_HOME");
    }
    TemporaryLabRun(const TemporaryLabRun&) = delete;
    TemporaryLabRun& operator=(const TemporaryLabRun&) = delete;

    // Also stores one tiny `experiment generalize` run per task (lab.generalization
    // reads them): alibi and learned, 3 steps, n in 1..2, evaluated at 1, 2 and
    // 4 (the learned table refuses 4). Three steps learn nothing, so copy and
    // reverse count as learned at any accuracy (learned_threshold 0: their
    // curves are drawn) and addition and passkey at 90 % (named as not learned).
    // False (with error()) if one failed.
    bool storeGeneralizeRuns()
    {
        for (auto task : {poslab::synthetic_copy, poslab::synthetic_reverse, poslab::synthetic_addition,
                          poslab::synthetic_passkey}) {
            poslab::generalization_options o;
            o.task = task;
            o.train_max = 2;
            o.eval_lengths = {1, 2, 4};
            o.model.d_model = 8;
            o.model.n_heads = 2;
            o.model.n_layers = 1;
            o.train.steps = 3;
            o.train.batch_size = 2;
            o.eval_examples = 4;
            o.schemes = {poslab::LM_POSITION_ALIBI, poslab::LM_POSITION_LEARNED};
            o.learned_threshold = task == poslab::synthetic_copy || task == poslab::synthetic_reverse ? 0.0 : 0.9;
            poslab::derive_generalization_schedule(o);
            const poslab::generalization_result r = poslab::run_generalization_experiment(o);
            poslab::lab::RunProvenance pv;
            pv.source = QStringLiteral("cli");
            pv.command = QStringLiteral("poslab experiment generalize");
            pv.finishedUtc = QDateTime::currentDateTimeUtc();
            pv.machine = poslab::lab::currentMachine(1);
            if (poslab::lab::saveGeneralizeRun(r, pv, &m_error).isEmpty()) return false;
        }
        return true;
    }

    bool ok() const { return !m_path.isEmpty(); }
    QString error() const { return m_error.en; }
    QString path() const { return m_path; }  // the stored run's file

private:
    QTemporaryDir m_dir;
    QByteArray m_oldHome;
    bool m_hadHome = false;
    QString m_path;
    poslab::util::Text2 m_error;
};
