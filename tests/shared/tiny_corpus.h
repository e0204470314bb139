// SPDX-License-Identifier: Apache-2.0
// tiny_corpus.h — a small plain-text corpus for training tests: 120
// paragraphs of simple sentences from 13 words (about 15 KB), drawn by a
// seeded linear congruential generator.
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace poslab::testing {

// Writes the corpus to `path`; returns `path`, or an empty string if it
// cannot be written.
inline QString writeTinyCorpus(const QString& path, unsigned seed)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "dog", "ran", "to", "big", "red", "house"};
    unsigned x = seed;
    for (int p = 0; p < 120; ++p) {
        QByteArray para;
        for (int w = 0; w < 30; ++w) {
            x = x * 1103515245u + 12345u;
            para += words[(x >> 16) % 13];
            para += (w % 10 == 9) ? ".\n" : " ";
        }
        f.write(para + "\n");
    }
    return path;
}

}  // namespace poslab::testing
