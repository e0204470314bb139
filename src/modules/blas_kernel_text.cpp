// SPDX-License-Identifier: Apache-2.0
#include "modules/blas_kernel_text.h"

namespace poslab::modules {

using util::T2;

namespace {

Text2 reasonFor(const QString& sourceId, const QString& openblasChoice, const QString& rejected)
{
    if (sourceId == u"openblas") return T2("detected by OpenBLAS", "由 OpenBLAS 自行检测");
    if (sourceId == u"poslab")
        return T2("chosen by PosLab for this CPU (OpenBLAS's own pick: %1)",
                  "由 PosLab 为此 CPU 选择（若由 OpenBLAS 自行选择则为 %1）")
            .arg(openblasChoice);
    if (sourceId == u"poslab_rejected")
        return T2("detected by OpenBLAS (PosLab's choice %1 failed its self-check)",
                  "由 OpenBLAS 自行检测（PosLab 选择的 %1 未通过自检）")
            .arg(rejected);
    if (sourceId == u"user")
        return T2("set by the OPENBLAS_CORETYPE environment variable", "由环境变量 OPENBLAS_CORETYPE 指定");
    if (sourceId == u"auto_off")
        return T2("detected by OpenBLAS (POSLAB_BLAS_AUTO=0)", "由 OpenBLAS 自行检测（POSLAB_BLAS_AUTO=0）");
    return Text2::same(sourceId);
}

}  // namespace

Text2 blasKernelReason(const blas_kernel_status& s)
{
    return reasonFor(QString::fromLatin1(blas_kernel_source_id(s.source)), QString::fromStdString(s.openblas_choice),
                     QString::fromStdString(s.rejected));
}

Text2 blasKernelText(const QString& core, const QString& sourceId, const QString& openblasChoice,
                     const QString& rejected)
{
    return T2("%1 — %2", "%1——%2").arg(Text2::same(core), reasonFor(sourceId, openblasChoice, rejected));
}

Text2 blasKernelText(const blas_kernel_status& s)
{
    return blasKernelText(QString::fromStdString(s.core), QString::fromLatin1(blas_kernel_source_id(s.source)),
                          QString::fromStdString(s.openblas_choice), QString::fromStdString(s.rejected));
}

}  // namespace poslab::modules
