// SPDX-License-Identifier: Apache-2.0
// new_command.h — `poslab new NN-slug`: a new chapter's English and Chinese
// skeletons, ready for a teacher to fill in.
//
//   poslab new NN-slug [--course DIR] [--title TEXT] [--lang en|zh]
//
// Writes DIR/en/NN-slug.md and DIR/zh/NN-slug.md (DIR: the current folder by
// default; en/ and zh/ are made when missing) from the templates in
// src/app/chapter_template/: front matter, an introduction with math, a step
// with a run block the reader can vary and a table, and one exercise of each
// kind (number, choice, multiple, text, run). The skeletons pass
// `poslab check --strict` as written (tests/app/tst_check_cli.cpp), so a
// teacher starts from a chapter that works and changes it step by step.
//
// Nothing is overwritten: a file of that name, or another chapter with the
// same number or id in either language, is a usage error (exit status 2)
// and nothing is written.
#pragma once

#include <QStringList>

namespace poslab::app {

// `args` without the command word itself.
int commandNew(const QStringList& args);

}  // namespace poslab::app
