// SPDX-License-Identifier: Apache-2.0
// blas_kernel_text.h — the BLAS kernels in use and how they were chosen
// (core/blas_kernel_choice.h), worded in both languages, for --version,
// `poslab doctor`, the Training Lab, stored runs and the PDF appendix.
#pragma once

#include "core/blas_kernel_choice.h"
#include "util/text2.h"

namespace poslab::modules {

using util::Text2;

// How they were chosen: "chosen by PosLab for this CPU (OpenBLAS's own pick:
// Prescott)" / "由 PosLab 为此 CPU 选择（若由 OpenBLAS 自行选择则为 Prescott）".
Text2 blasKernelReason(const blas_kernel_status& status);
// The kernels and the reason: "Cooperlake — chosen by PosLab for this CPU …".
Text2 blasKernelText(const blas_kernel_status& status);
// The same for a stored run: the source id (blas_kernel_source_id) and the
// names as saved. An unknown id (a newer PosLab's run) keeps the id.
Text2 blasKernelText(const QString& core, const QString& sourceId, const QString& openblasChoice,
                     const QString& rejected);

}  // namespace poslab::modules
