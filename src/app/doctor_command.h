// SPDX-License-Identifier: Apache-2.0
// doctor_command.h — `poslab doctor`: what a teacher pastes into a bug report
// about the machine PosLab runs on, in English or Chinese.
//
//   poslab doctor [--lang en|zh] [--format text|json]
//
// PosLab's version and build, Qt, the operating system; the processor (brand,
// vendor, family and model in hex and decimal, the instruction sets it has and
// whether the operating system enables AVX and AVX-512 state,
// core/cpu_features.h); OpenBLAS (its configuration, the kernels in use and how
// they were chosen, core/blas_kernel_choice.h, what OpenBLAS picks by itself,
// its threads and the ideal thread count) with sgemm measured on one thread
// and on all of them (1024×1024, best of a few after a warm-up, about a second
// in all); the fonts found, the MathJax bundle, and the course, user data and
// training-lab folders. --format json prints one object with stable keys:
//   { "format": "poslab-doctor", "version": 1, "poslab_version", "build",
//     "qt": {"runtime", "built"}, "os": {"name", "kernel", "architecture"},
//     "cpu": {"brand", "vendor", "family", "model", "stepping", "features": [...],
//             "os_saves_avx", "os_saves_avx512"},
//     "blas": {"config", "kernels", "kernel_source", "openblas_choice" (null
//              when OPENBLAS_CORETYPE is set), "rejected", "best_for_cpu",
//              "reason" (in --lang), "threads", "ideal_threads"},
//     "sgemm": {"size", "threads_all", "gflops_one_thread", "gflops_all_threads"},
//     "fonts": {"serif", "sans", "monospace", "cjk"},
//     "mathjax": {"found", "version", "prerendered_formulas"},
//     "folders": {"course", "course_found", "user_data", "lab_results",
//                 "lab_results_exists"} }
// Exit status 0; 2 for a usage error. Needs a QGuiApplication (fonts);
// without a display main.cpp gives it the offscreen platform.
#pragma once

#include <QStringList>

namespace poslab::app {

// `args` without the command word itself.
int commandDoctor(const QStringList& args);

}  // namespace poslab::app
