// fp64 reference on the host (tests, small shapes).
#include "lab/random.hpp"
#include "lab/reference.hpp"

namespace projkit::lab {

std::vector<double> reference_host(const ProjectionSpec& spec, int m, const uint16_t* x_bits, const float* w) {
  const int64_t n_out = spec.out_cols(m), k = spec.k;
  std::vector<double> y(std::size_t(m) * std::size_t(n_out));
  std::vector<double> xr(static_cast<std::size_t>(k));
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < k; ++c) xr[std::size_t(c)] = f32_from_bf16_bits(x_bits[r * k + c]);
    for (int64_t j = 0; j < n_out; ++j) {
      double acc = 0.0;
      const float* wr = w + j * k;
      for (int64_t c = 0; c < k; ++c) acc += xr[std::size_t(c)] * double(wr[c]);
      y[std::size_t(r * n_out + j)] = acc;
    }
  }
  return y;
}

}  // namespace projkit::lab
