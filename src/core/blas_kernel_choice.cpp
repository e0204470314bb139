// SPDX-License-Identifier: Apache-2.0
#include "core/blas_kernel_choice.h"

#include "core/common.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <unistd.h>

extern char** environ;

namespace poslab {

namespace {

bool same_name(std::string_view a, std::string_view b)
{
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); i++)
        if (std::tolower((unsigned char)a[i]) != std::tolower((unsigned char)b[i])) return false;
    return true;
}

// POSLAB_BLAS_KERNEL = "<kind>:<kernel>:<OpenBLAS's own>".
struct startup_marker {
    std::string kind;  // "chosen" or "rejected"
    std::string kernel;
    std::string openblas_choice;
};

startup_marker parse_marker(const char* text)
{
    startup_marker m;
    if (!text) return m;
    const std::string s(text);
    const auto first = s.find(':');
    const auto second = first == std::string::npos ? first : s.find(':', first + 1);
    if (second == std::string::npos) return m;
    m.kind = s.substr(0, first);
    m.kernel = s.substr(first + 1, second - first - 1);
    m.openblas_choice = s.substr(second + 1);
    if (m.kernel.empty() || m.openblas_choice.empty()) m.kind.clear();
    return m;
}

blas_kernel_status status_of(std::string_view core, std::string_view openblas_choice, blas_kernel_source source,
                             std::string_view rejected = {})
{
    return {std::string(core), std::string(openblas_choice), std::string(rejected), source};
}

// A process whose OPENBLAS_CORETYPE is set: by PosLab (the marker names the
// same kernel) or by the user.
blas_startup_plan plan_with_coretype(const blas_startup_env& env, std::string_view loaded_core,
                                     const std::function<bool()>& kernel_computes_right)
{
    blas_startup_plan plan;
    const startup_marker m = parse_marker(env.marker);
    if (m.kind == "chosen" && same_name(m.kernel, env.coretype)) {
        if (!same_name(loaded_core, m.kernel)) {
            // The library did not load what was asked (a build without
            // DYNAMIC_ARCH, or a name it does not have): its own choice stands.
            plan.status = status_of(loaded_core, m.openblas_choice, blas_kernel_source::openblas);
        } else if (!kernel_computes_right()) {
            plan.start_again = true;
            plan.coretype = m.openblas_choice;
            plan.marker = "rejected:" + m.kernel + ":" + m.openblas_choice;
        } else {
            plan.status = status_of(loaded_core, m.openblas_choice, blas_kernel_source::poslab);
        }
        return plan;
    }
    if (m.kind == "rejected" && same_name(m.openblas_choice, env.coretype)) {
        plan.status = status_of(loaded_core, m.openblas_choice, blas_kernel_source::poslab_rejected, m.kernel);
        return plan;
    }
    // OpenBLAS's own choice is not known while the variable overrides it.
    plan.status = status_of(loaded_core, {}, blas_kernel_source::user);
    return plan;
}

}  // namespace

bool is_generic_blas_kernel(std::string_view core)
{
    // OpenBLAS 0.3.21's x86 kernel families with AVX or more (driver/others/
    // dynamic.c, corename[]). Every other name (Prescott, Core2, Nehalem,
    // Katmai, …, an empty or unknown one) uses at most SSE3/SSE4: generic.
    static const char* const with_avx[] = {"Sandybridge", "Bulldozer", "Piledriver", "Steamroller", "Excavator",
                                           "Haswell",     "Zen",       "SkylakeX",   "Cooperlake",  "SapphireRapids"};
    for (const char* name : with_avx)
        if (same_name(core, name)) return false;
    return true;
}

std::string best_blas_kernel_for(const cpu_features& cpu)
{
    if (cpu.usable_avx512_bf16()) return "Cooperlake";
    if (cpu.usable_avx512()) return "SkylakeX";
    if (cpu.usable_avx2_fma()) {
        // OpenBLAS gives AMD and Hygon CPUs with AVX2 its Zen kernels.
        const bool amd = cpu.vendor == "AuthenticAMD" || cpu.vendor == "HygonGenuine";
        return amd ? "Zen" : "Haswell";
    }
    if (cpu.usable_avx()) return "Sandybridge";
    return {};
}

std::string choose_blas_kernel(const cpu_features& cpu, std::string_view openblas_choice)
{
    if (!is_generic_blas_kernel(openblas_choice)) return {};
    return best_blas_kernel_for(cpu);
}

blas_startup_plan plan_blas_startup(const blas_startup_env& env, const cpu_features& cpu, std::string_view loaded_core,
                                    const std::function<bool()>& kernel_computes_right)
{
    if (env.coretype) return plan_with_coretype(env, loaded_core, kernel_computes_right);
    blas_startup_plan plan;
    const std::string_view openblas_choice =
        env.assume_openblas && *env.assume_openblas ? std::string_view(env.assume_openblas) : loaded_core;
    if (env.auto_setting && std::strcmp(env.auto_setting, "0") == 0) {
        plan.status = status_of(loaded_core, loaded_core, blas_kernel_source::auto_off);
        return plan;
    }
    // A marker without OPENBLAS_CORETYPE: someone removed the variable. Never
    // start again from here, so no loop can form.
    const std::string choice = env.marker ? std::string() : choose_blas_kernel(cpu, openblas_choice);
    if (choice.empty()) {
        plan.status = status_of(loaded_core, loaded_core, blas_kernel_source::openblas);
        return plan;
    }
    plan.start_again = true;
    plan.coretype = choice;
    plan.marker = "chosen:" + choice + ":" + std::string(openblas_choice);
    return plan;
}

bool blas_kernel_computes_right(sgemm_function gemm)
{
    struct shape {
        matmul_op op_a, op_b;
        int M, N, K;
        float beta;
    };
    // Odd sizes leave edge tiles in every direction; 67·45·83 takes the
    // small-matrix kernels where the library has them, 160·192·200 the packed
    // path. beta = 1 checks accumulation too.
    const shape shapes[] = {
        {MATMUL_N, MATMUL_N, 67, 45, 83, 0.0f},
        {MATMUL_T, MATMUL_N, 33, 130, 17, 1.0f},
        {MATMUL_N, MATMUL_T, 160, 192, 200, 0.0f},
        {MATMUL_T, MATMUL_T, 19, 64, 96, 1.0f},
    };
    rng random(20260601);
    for (const shape& s : shapes) {
        std::vector<float> a((size_t)s.M * s.K), b((size_t)s.K * s.N), c((size_t)s.M * s.N);
        for (float& x : a) x = random.uniform(-1.0f, 1.0f);
        for (float& x : b) x = random.uniform(-1.0f, 1.0f);
        for (float& x : c) x = random.uniform(-1.0f, 1.0f);
        std::vector<float> ref = c;
        const int lda = s.op_a == MATMUL_N ? s.K : s.M;
        const int ldb = s.op_b == MATMUL_N ? s.N : s.K;
        gemm(s.op_a, s.op_b, s.M, s.N, s.K, 1.0f, a.data(), lda, b.data(), ldb, s.beta, c.data(), s.N);
        matmul_sgemm_naive(s.op_a, s.op_b, s.M, s.N, s.K, 1.0f, a.data(), lda, b.data(), ldb, s.beta, ref.data(), s.N);
        // Each entry sums K products of magnitude <= 1: float rounding stays
        // far below K · 2⁻²⁰; a wrong kernel is off by whole products.
        const double tolerance = s.K * std::ldexp(1.0, -20) + 1e-6;
        for (size_t i = 0; i < c.size(); i++)
            if (!(std::fabs((double)c[i] - ref[i]) <= tolerance)) return false;
    }
    return true;
}

namespace {

blas_kernel_status& kernel_status()
{
    static blas_kernel_status status;
    return status;
}

// The program's arguments as the kernel gave them (argv is not reachable
// from a load-time constructor in a portable way).
std::vector<std::string> read_own_arguments()
{
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    size_t start = 0;
    while (start < all.size()) {
        const size_t end = all.find('\0', start);
        args.push_back(all.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return args;
}

// Replaces the process by the same program with two variables set. Returns
// only when that fails.
void start_again_with(const std::string& coretype, const std::string& marker)
{
    std::vector<std::string> args = read_own_arguments();
    if (args.empty()) return;
    std::vector<std::string> env_strings;
    for (char** e = environ; e && *e; ++e) {
        const std::string_view entry(*e);
        if (entry.starts_with("OPENBLAS_CORETYPE=") || entry.starts_with("POSLAB_BLAS_KERNEL=")) continue;
        env_strings.emplace_back(entry);
    }
    env_strings.push_back("OPENBLAS_CORETYPE=" + coretype);
    env_strings.push_back("POSLAB_BLAS_KERNEL=" + marker);
    std::vector<char*> argv, envp;
    for (std::string& s : args) argv.push_back(s.data());
    argv.push_back(nullptr);
    for (std::string& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    execve("/proc/self/exe", argv.data(), envp.data());
}

}  // namespace

void choose_blas_kernel_at_load()
{
    blas_startup_env env;
    env.coretype = std::getenv("OPENBLAS_CORETYPE");
    env.marker = std::getenv("POSLAB_BLAS_KERNEL");
    env.auto_setting = std::getenv("POSLAB_BLAS_AUTO");
    env.assume_openblas = std::getenv("POSLAB_BLAS_ASSUME_OPENBLAS");
    const char* loaded = blas_core_name();
    const std::string loaded_core = loaded ? loaded : "";
    const blas_startup_plan plan =
        plan_blas_startup(env, read_cpu_features(), loaded_core, [] { return blas_kernel_computes_right(); });
    if (plan.start_again) {
        start_again_with(plan.coretype, plan.marker);
        // execve failed: stay with what is loaded.
        kernel_status() = {loaded_core, loaded_core, {}, blas_kernel_source::openblas};
        return;
    }
    kernel_status() = plan.status;
}

const blas_kernel_status& blas_kernel_in_use()
{
    return kernel_status();
}

const char* blas_kernel_source_id(blas_kernel_source source)
{
    switch (source) {
        case blas_kernel_source::openblas: return "openblas";
        case blas_kernel_source::poslab: return "poslab";
        case blas_kernel_source::poslab_rejected: return "poslab_rejected";
        case blas_kernel_source::user: return "user";
        case blas_kernel_source::auto_off: return "auto_off";
    }
    return "";
}

std::string blas_kernel_english(const blas_kernel_status& s)
{
    switch (s.source) {
        case blas_kernel_source::openblas: return s.core + ", detected by OpenBLAS";
        case blas_kernel_source::poslab:
            return s.core + ", chosen by PosLab for this CPU (OpenBLAS's own pick: " + s.openblas_choice + ")";
        case blas_kernel_source::poslab_rejected:
            return s.core + ", detected by OpenBLAS (PosLab's choice " + s.rejected + " failed its self-check)";
        case blas_kernel_source::user: return s.core + ", set by the OPENBLAS_CORETYPE environment variable";
        case blas_kernel_source::auto_off: return s.core + ", detected by OpenBLAS (POSLAB_BLAS_AUTO=0)";
    }
    return s.core;
}

}  // namespace poslab
