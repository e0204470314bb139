// SPDX-License-Identifier: Apache-2.0
// checkpoint.cpp — see checkpoint.h.
#include "lm/checkpoint.h"

#include "lm/tensor_file.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <set>
#include <string_view>
#include <system_error>

namespace poslab {

namespace {

std::string double_text(double x)
{
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, x);  // shortest exact round trip
    return std::string(buf, r.ptr);
}

std::string float_text(float x)
{
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, r.ptr);
}

const std::string* find_meta(const std::vector<std::pair<std::string, std::string>>& md, const std::string& key)
{
    for (const auto& kv : md)
        if (kv.first == key) return &kv.second;
    return nullptr;
}

// `where` is "checkpoint PATH": the path alone, for a coded_error's argument.
std::string path_of(const std::string& where)
{
    const std::string prefix = "checkpoint ";
    return where.compare(0, prefix.size(), prefix) == 0 ? where.substr(prefix.size()) : where;
}

// The stored state does not fit together; `detail` (English) says how.
[[noreturn]] void inconsistent(const std::string& path, const std::string& detail)
{
    throw coded_error("lm_checkpoint.inconsistent", {path, detail});
}

const std::string& need_meta(const std::vector<std::pair<std::string, std::string>>& md, const std::string& key,
                             const std::string& where)
{
    const std::string* v = find_meta(md, key);
    if (!v) throw coded_error("lm_checkpoint.field_missing", {path_of(where), key});
    return *v;
}

template <class Int>
Int parse_int(const std::string& text, const std::string& key, const std::string& where)
{
    Int value{};
    const char* end = text.data() + text.size();
    auto r = std::from_chars(text.data(), end, value);
    if (text.empty() || r.ec != std::errc() || r.ptr != end)
        throw coded_error("lm_checkpoint.field_not_integer", {path_of(where), key, text.substr(0, 40)});
    return value;
}

template <class Real>
Real parse_real(const std::string& text, const std::string& key, const std::string& where)
{
    Real value{};
    const char* end = text.data() + text.size();
    auto r = std::from_chars(text.data(), end, value);
    if (text.empty() || r.ec != std::errc() || r.ptr != end || !std::isfinite(value))
        throw coded_error("lm_checkpoint.field_not_number", {path_of(where), key, text.substr(0, 40)});
    return value;
}

bool reserved_key(const std::string& key)
{
    return key == "format" || key == "lm.version" || key == "vocabulary" || key.rfind("config.", 0) == 0 ||
           key.rfind("adamw.", 0) == 0 || key.rfind("schedule.", 0) == 0;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> lm_config_to_metadata(const lm_config& c)
{
    return {
        {"config.vocab_size", std::to_string(c.vocab_size)},
        {"config.d_model", std::to_string(c.d_model)},
        {"config.n_heads", std::to_string(c.n_heads)},
        {"config.n_layers", std::to_string(c.n_layers)},
        {"config.context", std::to_string(c.context)},
        {"config.position", lm_position_name(c.position)},
        {"config.rope_theta", double_text(c.rope_theta)},
        {"config.t5_num_buckets", std::to_string(c.t5_num_buckets)},
        {"config.t5_max_distance", std::to_string(c.t5_max_distance)},
        {"config.sinusoidal_scale", float_text(c.sinusoidal_scale)},
        {"config.seed", std::to_string(c.seed)},
        {"config.num_threads", std::to_string(c.num_threads)},
    };
}

lm_config lm_config_from_metadata(const std::vector<std::pair<std::string, std::string>>& md, const std::string& where)
{
    lm_config c;
    c.vocab_size = parse_int<int>(need_meta(md, "config.vocab_size", where), "config.vocab_size", where);
    c.d_model = parse_int<int>(need_meta(md, "config.d_model", where), "config.d_model", where);
    c.n_heads = parse_int<int>(need_meta(md, "config.n_heads", where), "config.n_heads", where);
    c.n_layers = parse_int<int>(need_meta(md, "config.n_layers", where), "config.n_layers", where);
    c.context = parse_int<int>(need_meta(md, "config.context", where), "config.context", where);
    const std::string& pos = need_meta(md, "config.position", where);
    if (!lm_position_from_name(pos, &c.position))
        throw coded_error("lm_checkpoint.position_unknown", {path_of(where), pos.substr(0, 40)});
    c.rope_theta = parse_real<double>(need_meta(md, "config.rope_theta", where), "config.rope_theta", where);
    c.t5_num_buckets = parse_int<int>(need_meta(md, "config.t5_num_buckets", where), "config.t5_num_buckets", where);
    c.t5_max_distance = parse_int<int>(need_meta(md, "config.t5_max_distance", where), "config.t5_max_distance", where);
    c.sinusoidal_scale =
        parse_real<float>(need_meta(md, "config.sinusoidal_scale", where), "config.sinusoidal_scale", where);
    c.seed = parse_int<std::uint64_t>(need_meta(md, "config.seed", where), "config.seed", where);
    c.num_threads = parse_int<int>(need_meta(md, "config.num_threads", where), "config.num_threads", where);
    try {
        lm_validate_config(c);
    } catch (const budget_error& e) {
        throw budget_error(where + ": " + e.args.at(0), e.args.at(1), e.args.at(2));
    } catch (const core_error& e) {
        throw coded_error("lm_checkpoint.config_invalid", {path_of(where), e.what()});
    }
    return c;
}

void save_lm_checkpoint(const std::string& path, const lm_model& model, const vocabulary* vocab,
                        const adamw_state* optimizer, const std::vector<std::pair<std::string, std::string>>& extra,
                        const lm_training_state* training)
{
    const lm_config& c = model.config();
    const std::size_t P = model.num_parameters();
    std::vector<std::pair<std::string, std::string>> md;
    md.emplace_back("format", lm_checkpoint_format);
    md.emplace_back("lm.version", std::to_string(lm_checkpoint_version));
    for (auto& kv : lm_config_to_metadata(c)) md.push_back(std::move(kv));
    if (vocab) {
        require(vocab->size() == (std::size_t)c.vocab_size, "save_lm_checkpoint: the vocabulary has ", vocab->size(),
                " ids but the model's vocab_size is ", c.vocab_size);
        md.emplace_back("vocabulary", serialize_vocabulary(*vocab));
    }
    if (optimizer) {
        require(optimizer->m.size() == P && optimizer->v.size() == P && optimizer->step >= 0,
                "save_lm_checkpoint: the optimizer state does not match the model (", optimizer->m.size(),
                " moments for ", P, " parameters)");
        md.emplace_back("adamw.step", std::to_string(optimizer->step));
    }
    if (training) {
        lr_schedule_validate(training->schedule);
        require(training->step >= 0 && training->step <= training->schedule.total_steps,
                "save_lm_checkpoint: schedule step ", training->step, " is outside 0 .. ",
                training->schedule.total_steps);
        require(training->batch_size >= 1, "save_lm_checkpoint: the training batch size must be >= 1");
        md.emplace_back("schedule.max_lr", float_text(training->schedule.max_lr));
        md.emplace_back("schedule.min_lr", float_text(training->schedule.min_lr));
        md.emplace_back("schedule.warmup_steps", std::to_string(training->schedule.warmup_steps));
        md.emplace_back("schedule.total_steps", std::to_string(training->schedule.total_steps));
        md.emplace_back("schedule.step", std::to_string(training->step));
        md.emplace_back("schedule.batch_size", std::to_string(training->batch_size));
        md.emplace_back("schedule.data_seed", std::to_string(training->data_seed));
    }
    for (const auto& kv : extra) {
        require(!reserved_key(kv.first), "save_lm_checkpoint: the metadata key '",
                std::string_view(kv.first).substr(0, 40), "' is reserved for the checkpoint itself");
        md.push_back(kv);
    }
    std::vector<tensor_view> tensors;
    for (const lm_param_info& p : model.layout()) {
        tensor_view v;
        v.name = p.name;
        for (int d : p.shape) v.shape.push_back((std::uint64_t)d);
        v.data = model.params() + p.offset;
        tensors.push_back(std::move(v));
    }
    if (optimizer) {
        tensors.push_back({"adamw.m", {(std::uint64_t)P}, optimizer->m.data()});
        tensors.push_back({"adamw.v", {(std::uint64_t)P}, optimizer->v.data()});
    }
    write_tensor_file(path, md, tensors);
}

namespace {

// The file is an lm checkpoint of the version this build reads.
void check_lm_format(const tensor_file& f, const std::string& path, const std::string& where)
{
    const std::string* fmt = f.meta("format");
    if (!fmt || *fmt != lm_checkpoint_format)
        throw coded_error("lm_checkpoint.not_lm",
                          {path, fmt ? fmt->substr(0, 40) : std::string("missing"), lm_checkpoint_format});
    const int version = parse_int<int>(need_meta(f.metadata, "lm.version", where), "lm.version", where);
    if (version != lm_checkpoint_version)
        throw coded_error("lm_checkpoint.version",
                          {path, std::to_string(version), std::to_string(lm_checkpoint_version)});
}

// The stored vocabulary, if any, which must have one id per row of the model's vocabulary.
void read_vocabulary(const tensor_file& f, const std::string& path, const lm_config& config, lm_checkpoint& out)
{
    const std::string* v = f.meta("vocabulary");
    if (!v) return;
    try {
        out.vocab = parse_vocabulary(*v);
    } catch (const core_error& e) {
        throw coded_error("lm_checkpoint.vocabulary_invalid", {path, e.what()});
    }
    if (out.vocab.size() != (std::size_t)config.vocab_size)
        throw coded_error("lm_checkpoint.vocabulary_size",
                          {path, std::to_string(out.vocab.size()), std::to_string(config.vocab_size)});
    out.has_vocabulary = true;
}

// Every parameter tensor of the model, present, of its shape and finite, copied
// into the model; their names are added to `known`.
void read_model_parameters(const tensor_file& f, const std::string& path, lm_model& model, std::set<std::string>& known)
{
    for (const lm_param_info& p : model.layout()) {
        known.insert(p.name);
        const named_tensor* t = f.find(p.name);
        std::vector<std::uint64_t> want;
        for (int d : p.shape) want.push_back((std::uint64_t)d);
        if (!t) throw coded_error("lm_checkpoint.tensor_missing", {path, p.name, tensor_shape_text(want)});
        if (t->shape != want)
            throw coded_error("lm_checkpoint.tensor_shape",
                              {path, p.name, tensor_shape_text(t->shape), tensor_shape_text(want)});
        for (std::size_t i = 0; i < p.size; ++i)
            if (!std::isfinite(t->data[i]))
                throw coded_error("lm_checkpoint.tensor_not_finite", {path, p.name, std::to_string(i)});
        std::memcpy(model.params() + p.offset, t->data.data(), p.size * sizeof(float));
    }
}

// The AdamW state, if stored: both moments (one value per parameter, P in all)
// and the step, all or none; the moments' names are added to `known`.
void read_optimizer_state(const tensor_file& f, const std::string& path, const std::string& where, std::size_t P,
                          lm_checkpoint& out, std::set<std::string>& known)
{
    const named_tensor* m = f.find("adamw.m");
    const named_tensor* v = f.find("adamw.v");
    const std::string* step = f.meta("adamw.step");
    if (!m && !v && !step) return;
    if (!m || !v || !step)
        inconsistent(path, "the optimizer state is incomplete (adamw.m, adamw.v and adamw.step go together)");
    const std::vector<std::uint64_t> want{(std::uint64_t)P};
    if (m->shape != want || v->shape != want)
        inconsistent(path, "the optimizer moments have shapes " + tensor_shape_text(m->shape) + " and " +
                               tensor_shape_text(v->shape) + " but the model has " + std::to_string(P) + " parameters");
    out.optimizer.step = parse_int<long long>(*step, "adamw.step", where);
    if (out.optimizer.step < 0) inconsistent(path, "adamw.step is negative");
    out.optimizer.m = m->data;
    out.optimizer.v = v->data;
    out.has_optimizer = true;
    known.insert("adamw.m");
    known.insert("adamw.v");
}

// The learning-rate schedule and where training stood, if stored (schedule.step says so).
void read_training_state(const tensor_file& f, const std::string& path, const std::string& where, lm_checkpoint& out)
{
    if (!f.meta("schedule.step")) return;
    lm_training_state& t = out.training;
    t.schedule.max_lr = parse_real<float>(need_meta(f.metadata, "schedule.max_lr", where), "schedule.max_lr", where);
    t.schedule.min_lr = parse_real<float>(need_meta(f.metadata, "schedule.min_lr", where), "schedule.min_lr", where);
    t.schedule.warmup_steps =
        parse_int<int>(need_meta(f.metadata, "schedule.warmup_steps", where), "schedule.warmup_steps", where);
    t.schedule.total_steps =
        parse_int<int>(need_meta(f.metadata, "schedule.total_steps", where), "schedule.total_steps", where);
    t.step = parse_int<long long>(need_meta(f.metadata, "schedule.step", where), "schedule.step", where);
    t.batch_size = parse_int<int>(need_meta(f.metadata, "schedule.batch_size", where), "schedule.batch_size", where);
    t.data_seed =
        parse_int<std::uint64_t>(need_meta(f.metadata, "schedule.data_seed", where), "schedule.data_seed", where);
    try {
        lr_schedule_validate(t.schedule);
    } catch (const core_error& e) {
        inconsistent(path, std::string("the stored learning-rate schedule is invalid: ") + e.what());
    }
    if (t.step < 0 || t.step > t.schedule.total_steps || t.batch_size < 1)
        inconsistent(path, "the stored training state is inconsistent (step " + std::to_string(t.step) + " of " +
                               std::to_string(t.schedule.total_steps) + ", batch " + std::to_string(t.batch_size) +
                               ")");
    out.has_training = true;
}

// Every tensor in the file was read as a parameter or an optimizer moment.
void check_no_unknown_tensors(const tensor_file& f, const std::string& path, const std::set<std::string>& known)
{
    for (const named_tensor& t : f.tensors)
        if (!known.count(t.name))
            inconsistent(path, "unexpected tensor '" + t.name.substr(0, 60) +
                                   "' (not part of a model with the stored configuration)");
}

}  // namespace

lm_checkpoint load_lm_checkpoint(const std::string& path, int num_threads)
{
    const std::string where = "checkpoint " + path;
    tensor_file f = read_tensor_file(path);
    check_lm_format(f, path, where);

    lm_config config = lm_config_from_metadata(f.metadata, where);
    if (num_threads > 0) config.num_threads = num_threads;

    lm_checkpoint out;
    read_vocabulary(f, path, config, out);
    auto model = std::make_unique<lm_model>(config);
    std::set<std::string> known;
    read_model_parameters(f, path, *model, known);
    read_optimizer_state(f, path, where, model->num_parameters(), out, known);
    read_training_state(f, path, where, out);
    check_no_unknown_tensors(f, path, known);
    for (const auto& kv : f.metadata)
        if (!reserved_key(kv.first)) out.extra.push_back(kv);
    out.model = std::move(model);
    return out;
}

}  // namespace poslab
