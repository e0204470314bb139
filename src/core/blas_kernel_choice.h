// SPDX-License-Identifier: Apache-2.0
// blas_kernel_choice.h — PosLab picks OpenBLAS's CPU kernels itself when
// OpenBLAS would fall back to a generic one.
//
// Debian 12's OpenBLAS (0.3.21, built with DYNAMIC_ARCH) chooses its kernels
// by CPU family and model when the library loads. A CPU newer than the library
// can land on a generic SSE3 kernel ("Prescott"): on a Xeon of family 6 model
// 207, which has AVX-512 with BF16, sgemm then runs at a fifth of what the
// Cooperlake kernels of the same library reach (bench/README.md). OpenBLAS
// reads OPENBLAS_CORETYPE only while it loads, before main(), so PosLab decides
// when the program loads and, to change the kernel, starts itself again with
// the variable set (execve of /proc/self/exe with the same arguments and the
// same process id):
//
//   1. OPENBLAS_CORETYPE set by the user (any value, even empty): left alone.
//      POSLAB_BLAS_AUTO=0: left alone.
//   2. Otherwise, if OpenBLAS's own choice is generic (no AVX) and the CPU
//      and the operating system offer more (choose_blas_kernel), PosLab starts
//      again with OPENBLAS_CORETYPE=<choice> and POSLAB_BLAS_KERNEL=
//      "chosen:<choice>:<OpenBLAS's own>", which tells the new process the
//      value came from PosLab.
//   3. That process checks the kernel once (blas_kernel_computes_right: a few
//      small products against plain loops, about a millisecond); if it
//      disagrees, it starts again with OpenBLAS's own choice and
//      POSLAB_BLAS_KERNEL="rejected:<choice>:<OpenBLAS's own>".
// Each step sets OPENBLAS_CORETYPE, so a process starts itself again at most
// twice. Processes PosLab starts inherit both variables and say the same.
// A CPU that OpenBLAS maps to a real kernel (Haswell, Zen, SkylakeX, …) is
// left alone.
//
// Every program that links poslab_core does this (matmul.cpp runs it at load
// time): the window, each command, the tests and the benchmarks.
#pragma once

#include "core/cpu_features.h"
#include "core/matmul.h"

#include <functional>
#include <string>
#include <string_view>

namespace poslab {

// How the kernels in use came to be chosen.
enum class blas_kernel_source {
    openblas,         // OpenBLAS detected the CPU and PosLab left its choice alone
    poslab,           // PosLab chose them for this CPU (OpenBLAS's own was generic)
    poslab_rejected,  // PosLab's choice failed the self-check: OpenBLAS's own is used
    user,             // OPENBLAS_CORETYPE was set before PosLab started
    auto_off,         // POSLAB_BLAS_AUTO=0: OpenBLAS's own, not looked at
};

struct blas_kernel_status {
    std::string core;             // the kernels in use (openblas_get_corename)
    std::string openblas_choice;  // what OpenBLAS picks by itself on this CPU ("" for user: not known)
    std::string rejected;         // poslab_rejected: the kernel that failed the check
    blas_kernel_source source = blas_kernel_source::openblas;
};

// The choice, as pure functions (tested over a table of real CPUs).
// A generic kernel: one without AVX (Prescott, Core2, Nehalem, Katmai, …).
// Case-insensitive; an empty or unknown name counts as generic.
bool is_generic_blas_kernel(std::string_view core);
// The best kernel family Debian 12's OpenBLAS has for what the CPU and the
// operating system allow: Cooperlake (AVX-512 + BF16), SkylakeX (AVX-512),
// Zen (AMD or Hygon with AVX2 + FMA), Haswell (AVX2 + FMA), Sandybridge (AVX),
// or "" (none better than generic).
std::string best_blas_kernel_for(const cpu_features& cpu);
// The kernel PosLab starts with instead of OpenBLAS's own, or "" to leave it.
std::string choose_blas_kernel(const cpu_features& cpu, std::string_view openblas_choice);

// What the process does at load time, as a pure function of its environment.
struct blas_startup_env {
    const char* coretype = nullptr;         // OPENBLAS_CORETYPE (null: not set)
    const char* marker = nullptr;           // POSLAB_BLAS_KERNEL
    const char* auto_setting = nullptr;     // POSLAB_BLAS_AUTO
    const char* assume_openblas = nullptr;  // POSLAB_BLAS_ASSUME_OPENBLAS (tests)
};
struct blas_startup_plan {
    bool start_again = false;   // execve with these two set:
    std::string coretype;       //   OPENBLAS_CORETYPE
    std::string marker;         //   POSLAB_BLAS_KERNEL
    blas_kernel_status status;  // when not starting again
};
// loaded_core: the kernels OpenBLAS loaded. kernel_computes_right is called
// only when the kernels came from PosLab's choice. assume_openblas, when set,
// stands for OpenBLAS's own choice (so tests can take every path on any CPU).
blas_startup_plan plan_blas_startup(const blas_startup_env& env, const cpu_features& cpu, std::string_view loaded_core,
                                    const std::function<bool()>& kernel_computes_right);

// The self-check: products of a few shapes (both operand orders, sizes that
// take OpenBLAS's small-matrix and blocked paths) through `gemm` against
// matmul_sgemm_naive, within float rounding.
using sgemm_function = void (*)(matmul_op, matmul_op, int, int, int, float, const float*, int, const float*, int, float,
                                float*, int);
bool blas_kernel_computes_right(sgemm_function gemm = matmul_sgemm);

// Runs the plan for this process: reads the environment, CPUID and OpenBLAS,
// and starts the program again when the plan says so. Called once, at load.
void choose_blas_kernel_at_load();
// The result, for --version, doctor, the Training Lab and stored runs.
const blas_kernel_status& blas_kernel_in_use();

// A stable id for the source ("openblas", "poslab", "poslab_rejected",
// "user", "auto_off"), stored with runs; the Qt layers word it in the
// reader's language (modules/blas_kernel_text.h).
const char* blas_kernel_source_id(blas_kernel_source source);
// The English sentence for the status: "Cooperlake, chosen by PosLab for this
// CPU (OpenBLAS's own pick: Prescott)" — for logs and benchmark reports.
std::string blas_kernel_english(const blas_kernel_status& status);

}  // namespace poslab
