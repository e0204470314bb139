// SPDX-License-Identifier: Apache-2.0
// vision.cpp — 2-D position encodings for ViTs. See vision.h for the formulas,
// conventions and sources.
#include "core/vision.h"

#include "core/common.h"

#include <climits>
#include <cmath>

namespace poslab {

namespace {

constexpr double k_pi = 3.14159265358979323846;

// gh, gw >= 1 and T = gh·gw fits in an int.
void check_grid(int gh, int gw, const char* where)
{
    require(gh >= 1 && gw >= 1, where, ": the grid must be at least 1x1, got ", gh, "x", gw);
    require(static_cast<long long>(gh) * gw <= INT_MAX, where, ": grid ", gh, "x", gw,
            " has more tokens than an int can count");
}

void check_dim4(int C, const char* where, const char* what)
{
    require(C >= 4 && C % 4 == 0, where, ": ", what, " must be a positive multiple of 4, got ", C);
}

void check_ptr(const void* p, const char* where, const char* name)
{
    require(p != nullptr, where, ": ", name, " is null");
}

}  // namespace

// ---------------------------------------------------------------------------
// Grid coordinates
// ---------------------------------------------------------------------------

void vit_grid_coords(int gh, int gw, float* tx_t, float* ty_t)
{
    check_grid(gh, gw, "vit_grid_coords");
    check_ptr(tx_t, "vit_grid_coords", "tx");
    check_ptr(ty_t, "vit_grid_coords", "ty");
    for (int row = 0; row < gh; ++row) {
        for (int col = 0; col < gw; ++col) {
            const int t = row * gw + col;
            tx_t[t] = static_cast<float>(col);  // x = column
            ty_t[t] = static_cast<float>(row);  // y = row
        }
    }
}

// ---------------------------------------------------------------------------
// 1. MAE 2-D sin-cos
// ---------------------------------------------------------------------------

namespace {
// Writes emb1d(p) (E values, [sin | cos]) to out. Double precision throughout.
void mae_emb1d(double p, int E, float* out)
{
    const int half = E / 2;
    for (int j = 0; j < half; ++j) {
        // ω_j = 1 / 10000^(j / (E/2))   (MAE: omega = 1 / 10000**(arange(E/2) / (E/2)))
        const double omega = 1.0 / std::pow(10000.0, static_cast<double>(j) / half);
        out[j] = static_cast<float>(std::sin(p * omega));
        out[half + j] = static_cast<float>(std::cos(p * omega));
    }
}
}  // namespace

void mae_sincos_1d(const float* pos_t, int T, int E, float* out)
{
    require(T >= 0, "mae_sincos_1d: T must be >= 0, got ", T);
    require(E >= 2 && E % 2 == 0, "mae_sincos_1d: the dimension must be a positive even number, got ", E);
    if (T == 0) return;
    check_ptr(pos_t, "mae_sincos_1d", "pos");
    check_ptr(out, "mae_sincos_1d", "out");
    for (int t = 0; t < T; ++t) mae_emb1d(pos_t[t], E, out + static_cast<std::size_t>(t) * E);
}

void mae_sincos_2d(int gh, int gw, int C, bool cls_token, float* out)
{
    check_grid(gh, gw, "mae_sincos_2d");
    check_dim4(C, "mae_sincos_2d", "the embedding dimension C");
    check_ptr(out, "mae_sincos_2d", "out");
    const int half = C / 2;
    float* grid = out;
    if (cls_token) {
        for (int c = 0; c < C; ++c) out[c] = 0.0f;  // MAE prepends a zero row for cls
        grid += C;
    }
    for (int row = 0; row < gh; ++row) {
        for (int col = 0; col < gw; ++col) {
            float* pe = grid + (static_cast<std::size_t>(row) * gw + col) * C;
            mae_emb1d(col, half, pe);         // channels [0, C/2): the COLUMN (MAE's "emb_h")
            mae_emb1d(row, half, pe + half);  // channels [C/2, C): the ROW (MAE's "emb_w")
        }
    }
}

std::vector<float> mae_sincos_2d(int gh, int gw, int C, bool cls_token)
{
    check_grid(gh, gw, "mae_sincos_2d");
    check_dim4(C, "mae_sincos_2d", "the embedding dimension C");
    const std::size_t rows = static_cast<std::size_t>(gh) * gw + (cls_token ? 1 : 0);
    require_elements({rows, static_cast<std::size_t>(C)}, sizeof(float), "MAE 2-D sin-cos table");
    std::vector<float> out(rows * C);
    mae_sincos_2d(gh, gw, C, cls_token, out.data());
    return out;
}

// ---------------------------------------------------------------------------
// 2. Learned row / column tables
// ---------------------------------------------------------------------------

namespace {
void check_rowcol(int gh, int gw, int C, const char* where)
{
    check_grid(gh, gw, where);
    require(C >= 2 && C % 2 == 0, where,
            ": the embedding dimension C must be a positive even number (two halves), got ", C);
}
}  // namespace

void rowcol_pe_init(int gh, int gw, int C, std::uint64_t seed, float* row_table, float* col_table)
{
    check_rowcol(gh, gw, C, "rowcol_pe_init");
    check_ptr(row_table, "rowcol_pe_init", "row_table");
    check_ptr(col_table, "rowcol_pe_init", "col_table");
    rng gen(seed);
    const std::size_t half = static_cast<std::size_t>(C / 2);
    fill_normal(row_table, static_cast<std::size_t>(gh) * half, 0.0f, 0.02f, gen);  // first rows
    fill_normal(col_table, static_cast<std::size_t>(gw) * half, 0.0f, 0.02f, gen);  // then columns
}

void rowcol_pe_forward(const float* row_table, const float* col_table, int gh, int gw, int C, float* pe)
{
    check_rowcol(gh, gw, C, "rowcol_pe_forward");
    check_ptr(row_table, "rowcol_pe_forward", "row_table");
    check_ptr(col_table, "rowcol_pe_forward", "col_table");
    check_ptr(pe, "rowcol_pe_forward", "pe");
    const int half = C / 2;
    for (int row = 0; row < gh; ++row) {
        const float* r = row_table + static_cast<std::size_t>(row) * half;
        for (int col = 0; col < gw; ++col) {
            const float* c = col_table + static_cast<std::size_t>(col) * half;
            float* out = pe + (static_cast<std::size_t>(row) * gw + col) * C;
            for (int k = 0; k < half; ++k) out[k] = c[k];         // [ col_table[col] |
            for (int k = 0; k < half; ++k) out[half + k] = r[k];  //   row_table[row] ]
        }
    }
}

void rowcol_pe_backward(const float* dpe, int gh, int gw, int C, float* drow_table, float* dcol_table)
{
    check_rowcol(gh, gw, C, "rowcol_pe_backward");
    check_ptr(dpe, "rowcol_pe_backward", "dpe");
    check_ptr(drow_table, "rowcol_pe_backward", "drow_table");
    check_ptr(dcol_table, "rowcol_pe_backward", "dcol_table");
    const int half = C / 2;
    for (int row = 0; row < gh; ++row) {
        float* dr = drow_table + static_cast<std::size_t>(row) * half;
        for (int col = 0; col < gw; ++col) {
            float* dc = dcol_table + static_cast<std::size_t>(col) * half;
            const float* d = dpe + (static_cast<std::size_t>(row) * gw + col) * C;
            // forward: out[k] = c[k]; out[half + k] = r[k]
            for (int k = 0; k < half; ++k) dc[k] += d[k];
            for (int k = 0; k < half; ++k) dr[k] += d[half + k];
        }
    }
}

// ---------------------------------------------------------------------------
// 3. 2-D RoPE
// ---------------------------------------------------------------------------

namespace {
void check_rope2d(int T, int D, const char* where)
{
    require(T >= 0, where, ": T must be >= 0, got ", T);
    check_dim4(D, where, "the head dimension D");
}
void check_theta(float theta, const char* where)
{
    require(std::isfinite(theta) && theta > 0.0f, where, ": theta must be a positive finite number, got ", theta);
}
}  // namespace

void rope2d_axial_freqs(int D, float theta, float* freqs_k)
{
    check_dim4(D, "rope2d_axial_freqs", "the head dimension D");
    check_theta(theta, "rope2d_axial_freqs");
    check_ptr(freqs_k, "rope2d_axial_freqs", "freqs");
    // rope-vit: 1 / theta ** (arange(0, dim, 4)[: dim // 4] / dim), i.e. exponent 4k/D
    for (int k = 0; k < D / 4; ++k)
        freqs_k[k] = static_cast<float>(1.0 / std::pow(static_cast<double>(theta), 4.0 * k / D));
}

void rope2d_axial_angles(const float* tx_t, const float* ty_t, int T, int D, float theta, float* angle_tp)
{
    check_rope2d(T, D, "rope2d_axial_angles");
    check_theta(theta, "rope2d_axial_angles");
    if (T == 0) return;
    check_ptr(tx_t, "rope2d_axial_angles", "tx");
    check_ptr(ty_t, "rope2d_axial_angles", "ty");
    check_ptr(angle_tp, "rope2d_axial_angles", "angle");
    const int Q = D / 4, P = D / 2;
    std::vector<float> f(Q);
    rope2d_axial_freqs(D, theta, f.data());
    for (int t = 0; t < T; ++t) {
        float* a = angle_tp + static_cast<std::size_t>(t) * P;
        for (int k = 0; k < Q; ++k) {
            a[k] = static_cast<float>(static_cast<double>(tx_t[t]) * f[k]);      // pairs [0, D/4): x
            a[Q + k] = static_cast<float>(static_cast<double>(ty_t[t]) * f[k]);  // pairs [D/4, D/2): y
        }
    }
}

void rope2d_mixed_init(int D, int H, float theta, std::uint64_t seed, bool random_phase, float* fx_hp, float* fy_hp)
{
    check_dim4(D, "rope2d_mixed_init", "the head dimension D");
    require(H >= 1, "rope2d_mixed_init: the number of heads must be >= 1, got ", H);
    check_theta(theta, "rope2d_mixed_init");
    check_ptr(fx_hp, "rope2d_mixed_init", "fx");
    check_ptr(fy_hp, "rope2d_mixed_init", "fy");
    const int Q = D / 4, P = D / 2;
    rng gen(seed);
    for (int h = 0; h < H; ++h) {
        // rope-vit: angles = rand(1) * 2π if rotate else 0 (one phase per head)
        const double phi = random_phase ? static_cast<double>(gen.uniform()) * 2.0 * k_pi : 0.0;
        float* fx = fx_hp + static_cast<std::size_t>(h) * P;
        float* fy = fy_hp + static_cast<std::size_t>(h) * P;
        for (int k = 0; k < Q; ++k) {
            const double mag = 1.0 / std::pow(static_cast<double>(theta), 4.0 * k / D);
            fx[k] = static_cast<float>(mag * std::cos(phi));                 // mag·cos φ
            fx[Q + k] = static_cast<float>(mag * std::cos(k_pi / 2 + phi));  // mag·cos(φ + π/2)
            fy[k] = static_cast<float>(mag * std::sin(phi));                 // mag·sin φ
            fy[Q + k] = static_cast<float>(mag * std::sin(k_pi / 2 + phi));  // mag·sin(φ + π/2)
        }
    }
}

void rope2d_mixed_angles(const float* fx_p, const float* fy_p, const float* tx_t, const float* ty_t, int T, int D,
                         float* angle_tp)
{
    check_rope2d(T, D, "rope2d_mixed_angles");
    if (T == 0) return;
    check_ptr(fx_p, "rope2d_mixed_angles", "fx");
    check_ptr(fy_p, "rope2d_mixed_angles", "fy");
    check_ptr(tx_t, "rope2d_mixed_angles", "tx");
    check_ptr(ty_t, "rope2d_mixed_angles", "ty");
    check_ptr(angle_tp, "rope2d_mixed_angles", "angle");
    const int P = D / 2;
    for (int t = 0; t < T; ++t) {
        float* a = angle_tp + static_cast<std::size_t>(t) * P;
        const double x = tx_t[t], y = ty_t[t];
        for (int p = 0; p < P; ++p) a[p] = static_cast<float>(x * fx_p[p] + y * fy_p[p]);  // t_x f^x_p + t_y f^y_p
    }
}

void rope2d_mixed_angles_backward(const float* dangle_tp, const float* tx_t, const float* ty_t, int T, int D,
                                  float* dfx_p, float* dfy_p)
{
    check_rope2d(T, D, "rope2d_mixed_angles_backward");
    if (T == 0) return;
    check_ptr(dangle_tp, "rope2d_mixed_angles_backward", "dangle");
    check_ptr(tx_t, "rope2d_mixed_angles_backward", "tx");
    check_ptr(ty_t, "rope2d_mixed_angles_backward", "ty");
    check_ptr(dfx_p, "rope2d_mixed_angles_backward", "dfx");
    check_ptr(dfy_p, "rope2d_mixed_angles_backward", "dfy");
    const int P = D / 2;
    for (int p = 0; p < P; ++p) {
        // forward: a[p] = x * fx[p] + y * fy[p]  =>  ∂a/∂fx[p] = x, ∂a/∂fy[p] = y
        double gx = 0.0, gy = 0.0;
        for (int t = 0; t < T; ++t) {
            const double d = dangle_tp[static_cast<std::size_t>(t) * P + p];
            gx += static_cast<double>(tx_t[t]) * d;
            gy += static_cast<double>(ty_t[t]) * d;
        }
        dfx_p[p] += static_cast<float>(gx);
        dfy_p[p] += static_cast<float>(gy);
    }
}

void rope2d_cos_sin(const float* angle_tp, int T, int P, float* cos_tp, float* sin_tp)
{
    require(T >= 0 && P >= 0, "rope2d_cos_sin: sizes must be >= 0, got T=", T, ", P=", P);
    const std::size_t n = static_cast<std::size_t>(T) * P;
    if (n == 0) return;
    check_ptr(angle_tp, "rope2d_cos_sin", "angle");
    check_ptr(cos_tp, "rope2d_cos_sin", "cos");
    check_ptr(sin_tp, "rope2d_cos_sin", "sin");
    for (std::size_t i = 0; i < n; ++i) {
        const double a = angle_tp[i];
        cos_tp[i] = static_cast<float>(std::cos(a));
        sin_tp[i] = static_cast<float>(std::sin(a));
    }
}

void rope2d_dangle_interleaved(const float* y_td, const float* dy_td, int T, int D, int rotary_dim, float* dangle_tp)
{
    require(T >= 0, "rope2d_dangle_interleaved: T must be >= 0, got ", T);
    require(D > 0 && rotary_dim > 0 && rotary_dim % 2 == 0 && rotary_dim <= D,
            "rope2d_dangle_interleaved: need an even rotary_dim with 0 < rotary_dim <= D, got "
            "rotary_dim=",
            rotary_dim, ", D=", D);
    if (T == 0) return;
    check_ptr(y_td, "rope2d_dangle_interleaved", "y");
    check_ptr(dy_td, "rope2d_dangle_interleaved", "dy");
    check_ptr(dangle_tp, "rope2d_dangle_interleaved", "dangle");
    const int P = rotary_dim / 2;
    for (int t = 0; t < T; ++t) {
        const float* y = y_td + static_cast<std::size_t>(t) * D;
        const float* dy = dy_td + static_cast<std::size_t>(t) * D;
        float* da = dangle_tp + static_cast<std::size_t>(t) * P;
        for (int p = 0; p < P; ++p) {
            // forward: y_u = u cos φ − v sin φ,  y_v = v cos φ + u sin φ
            // ∂y_u/∂φ = −y_v,  ∂y_v/∂φ = y_u
            const float yu = y[2 * p], yv = y[2 * p + 1];
            da[p] += dy[2 * p] * (-yv) + dy[2 * p + 1] * yu;
        }
    }
}

// ---------------------------------------------------------------------------
// M-RoPE axis assignment
// ---------------------------------------------------------------------------

void mrope_axis_assignment(const int* section3, int P, mrope_style style, int* axis_j)
{
    check_ptr(section3, "mrope_axis_assignment", "section");
    require(P >= 1, "mrope_axis_assignment: the number of frequencies P must be >= 1, got ", P);
    check_ptr(axis_j, "mrope_axis_assignment", "axis");
    const int st = section3[0], sh = section3[1], sw = section3[2];
    require(st >= 0 && sh >= 0 && sw >= 0, "mrope_axis_assignment: section sizes must be >= 0, got [", st, ", ", sh,
            ", ", sw, "]");
    require(static_cast<long long>(st) + sh + sw == P, "mrope_axis_assignment: mrope_section [", st, ", ", sh, ", ", sw,
            "] must sum to P = D/2 = ", P);
    if (style == MROPE_CONTIGUOUS) {
        // Qwen2-VL: split the frequency axis into [t | h | w] blocks
        for (int j = 0; j < P; ++j) axis_j[j] = j < st ? MROPE_AXIS_T : (j < st + sh ? MROPE_AXIS_H : MROPE_AXIS_W);
        return;
    }
    require(3LL * sh <= P && 3LL * sw <= P, "mrope_axis_assignment: interleaved mrope_section [", st, ", ", sh, ", ",
            sw, "] needs 3*s_h <= P and 3*s_w <= P (P = ", P, ")");
    // Qwen3-VL apply_interleaved_mrope: start from t everywhere, then overwrite
    // slice(1, 3·s_h, 3) with h and slice(2, 3·s_w, 3) with w.
    for (int j = 0; j < P; ++j) axis_j[j] = MROPE_AXIS_T;
    for (int j = 1; j < 3 * sh; j += 3) axis_j[j] = MROPE_AXIS_H;
    for (int j = 2; j < 3 * sw; j += 3) axis_j[j] = MROPE_AXIS_W;
}

void mrope_angles(const float* pos_t3, int T, const float* inv_freq, const int* axis_j, int P, float* angle_tp)
{
    require(T >= 0 && P >= 1, "mrope_angles: need T >= 0 and P >= 1, got T=", T, ", P=", P);
    if (T == 0) return;
    check_ptr(pos_t3, "mrope_angles", "pos");
    check_ptr(inv_freq, "mrope_angles", "inv_freq");
    check_ptr(axis_j, "mrope_angles", "axis");
    check_ptr(angle_tp, "mrope_angles", "angle");
    for (int j = 0; j < P; ++j)
        require(axis_j[j] >= 0 && axis_j[j] <= 2, "mrope_angles: axis[", j, "] = ", axis_j[j],
                " is not 0 (t), 1 (h) or 2 (w)");
    for (int t = 0; t < T; ++t) {
        const float* pos = pos_t3 + static_cast<std::size_t>(t) * 3;
        float* a = angle_tp + static_cast<std::size_t>(t) * P;
        for (int j = 0; j < P; ++j) a[j] = static_cast<float>(static_cast<double>(pos[axis_j[j]]) * inv_freq[j]);
    }
}

// ---------------------------------------------------------------------------
// 4. CPE / PEG
// ---------------------------------------------------------------------------

namespace {
void check_peg(int B, int gh, int gw, int C, const char* where)
{
    require(B >= 1, where, ": the batch size B must be >= 1, got ", B);
    check_grid(gh, gw, where);
    require(C >= 1, where, ": the number of channels C must be >= 1, got ", C);
}
}  // namespace

void peg_forward(const float* x_btc, const float* kernel_c33, const float* bias_c, int B, int gh, int gw, int C,
                 bool residual, float* y_btc)
{
    check_peg(B, gh, gw, C, "peg_forward");
    check_ptr(x_btc, "peg_forward", "x");
    check_ptr(kernel_c33, "peg_forward", "kernel");
    check_ptr(y_btc, "peg_forward", "y");
    require(x_btc != y_btc, "peg_forward: y must not alias x (the convolution reads neighbours)");
    const std::size_t T = static_cast<std::size_t>(gh) * gw;
    for (int b = 0; b < B; ++b) {
        const float* x = x_btc + b * T * C;
        float* y = y_btc + b * T * C;
        for (int r = 0; r < gh; ++r) {
            for (int c = 0; c < gw; ++c) {
                float* yo = y + (static_cast<std::size_t>(r) * gw + c) * C;
                const float* xo = x + (static_cast<std::size_t>(r) * gw + c) * C;
                for (int ch = 0; ch < C; ++ch) yo[ch] = (bias_c ? bias_c[ch] : 0.0f) + (residual ? xo[ch] : 0.0f);
                // Σ_{i,j} K[ch, i+1, j+1] · X[r+i, c+j, ch], skipping the zero padding
                for (int i = -1; i <= 1; ++i) {
                    if (r + i < 0 || r + i >= gh) continue;
                    for (int j = -1; j <= 1; ++j) {
                        if (c + j < 0 || c + j >= gw) continue;
                        const float* xn = x + (static_cast<std::size_t>(r + i) * gw + (c + j)) * C;
                        const int k = (i + 1) * 3 + (j + 1);
                        for (int ch = 0; ch < C; ++ch) yo[ch] += kernel_c33[ch * 9 + k] * xn[ch];
                    }
                }
            }
        }
    }
}

void peg_backward(const float* dy_btc, const float* x_btc, const float* kernel_c33, int B, int gh, int gw, int C,
                  bool residual, float* dx_btc, float* dkernel_c33, float* dbias_c)
{
    check_peg(B, gh, gw, C, "peg_backward");
    check_ptr(dy_btc, "peg_backward", "dy");
    check_ptr(x_btc, "peg_backward", "x");
    check_ptr(kernel_c33, "peg_backward", "kernel");
    check_ptr(dx_btc, "peg_backward", "dx");
    check_ptr(dkernel_c33, "peg_backward", "dkernel");
    // dx is accumulated while dy is still being read: they must not alias.
    require(dx_btc != dy_btc && dx_btc != x_btc, "peg_backward: dx must not alias dy or x");
    const std::size_t T = static_cast<std::size_t>(gh) * gw;
    for (int b = 0; b < B; ++b) {
        const float* x = x_btc + b * T * C;
        const float* dy = dy_btc + b * T * C;
        float* dx = dx_btc + b * T * C;
        for (int r = 0; r < gh; ++r) {
            for (int c = 0; c < gw; ++c) {
                const float* g = dy + (static_cast<std::size_t>(r) * gw + c) * C;
                float* dxo = dx + (static_cast<std::size_t>(r) * gw + c) * C;
                // forward: yo[ch] = bias[ch] + (residual ? xo[ch] : 0)
                for (int ch = 0; ch < C; ++ch) {
                    if (dbias_c) dbias_c[ch] += g[ch];
                    if (residual) dxo[ch] += g[ch];
                }
                // forward: yo[ch] += kernel[ch*9 + k] * xn[ch]
                for (int i = -1; i <= 1; ++i) {
                    if (r + i < 0 || r + i >= gh) continue;
                    for (int j = -1; j <= 1; ++j) {
                        if (c + j < 0 || c + j >= gw) continue;
                        const std::size_t n = (static_cast<std::size_t>(r + i) * gw + (c + j)) * C;
                        const int k = (i + 1) * 3 + (j + 1);
                        for (int ch = 0; ch < C; ++ch) {
                            dx[n + ch] += kernel_c33[ch * 9 + k] * g[ch];
                            dkernel_c33[ch * 9 + k] += x[n + ch] * g[ch];
                        }
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Cosine similarity of position vectors
// ---------------------------------------------------------------------------

void vit_cosine_similarity(const float* pe, int T, int C, float* sim)
{
    require(T >= 0 && C >= 1, "vit_cosine_similarity: need T >= 0 and C >= 1, got T=", T, ", C=", C);
    if (T == 0) return;
    check_ptr(pe, "vit_cosine_similarity", "pe");
    check_ptr(sim, "vit_cosine_similarity", "sim");
    std::vector<double> norm(T);
    for (int i = 0; i < T; ++i) {
        double s = 0.0;
        const float* a = pe + static_cast<std::size_t>(i) * C;
        for (int c = 0; c < C; ++c) s += static_cast<double>(a[c]) * a[c];
        norm[i] = std::sqrt(s);
    }
    for (int i = 0; i < T; ++i) {
        const float* a = pe + static_cast<std::size_t>(i) * C;
        for (int j = 0; j < T; ++j) {
            float& out = sim[static_cast<std::size_t>(i) * T + j];
            if (i == j) {  // exactly 1 on the diagonal (0-vector included, by convention)
                out = 1.0f;
                continue;
            }
            if (norm[i] == 0.0 || norm[j] == 0.0) {
                out = 0.0f;
                continue;
            }
            const float* b = pe + static_cast<std::size_t>(j) * C;
            double s = 0.0;
            for (int c = 0; c < C; ++c) s += static_cast<double>(a[c]) * b[c];
            out = static_cast<float>(s / (norm[i] * norm[j]));
        }
    }
}

}  // namespace poslab
