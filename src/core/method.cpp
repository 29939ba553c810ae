// Config names, the device buffer, and CUDA status helpers shared by kernel families.
#include "core/method.hpp"

#include <cctype>
#include <charconv>

namespace projkit {

std::string Config::name() const {
  std::string s = kernel;
  for (const auto& [k, v] : params) s += "." + k + std::to_string(v);
  return s;
}

int Config::get(std::string_view key, int fallback) const {
  for (const auto& [k, v] : params)
    if (k == key) return v;
  return fallback;
}

bool Config::has(std::string_view key) const {
  for (const auto& kv : params)
    if (kv.first == key) return true;
  return false;
}

Config Config::parse(std::string_view name) {
  Config c;
  std::size_t pos = name.find('.');
  c.kernel = std::string(name.substr(0, pos));
  if (c.kernel.empty())
    throw Error(StatusCode::parse_error, "method config name is empty: '" + std::string(name) + "'");
  while (pos != std::string_view::npos) {
    std::size_t next = name.find('.', pos + 1);
    std::string_view tok = name.substr(pos + 1, next == std::string_view::npos ? std::string_view::npos : next - pos - 1);
    std::size_t split = 0;
    while (split < tok.size() && (std::isalpha(static_cast<unsigned char>(tok[split])) || tok[split] == '_')) ++split;
    int value = 0;
    auto [ptr, ec] = std::from_chars(tok.data() + split, tok.data() + tok.size(), value);
    if (split == 0 || split == tok.size() || ec != std::errc() || ptr != tok.data() + tok.size())
      throw Error(StatusCode::parse_error, "method config '" + std::string(name) + "': token '" + std::string(tok) +
                                               "' is not <key><integer>");
    c.params.emplace_back(std::string(tok.substr(0, split)), value);
    pos = next;
  }
  return c;
}

Status cuda_status(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return Status::Ok();
  return {StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")"};
}

void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw Error(StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

int64_t resident_ctas(const void* kernel, int threads, std::size_t smem, int sm_count, const char* what) {
  int per_sm = 0;
  cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem),
             (std::string("cudaOccupancyMaxActiveBlocksPerMultiprocessor (") + what + ")").c_str());
  return int64_t(per_sm) * sm_count;
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes) cuda_check(cudaMalloc(&p_, bytes), "cudaMalloc (DeviceBuffer)");
}

DeviceBuffer::~DeviceBuffer() {
  if (p_) cudaFree(p_);
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& o) noexcept {
  if (this != &o) {
    if (p_) cudaFree(p_);
    p_ = o.p_;
    bytes_ = o.bytes_;
    o.p_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

}  // namespace projkit
