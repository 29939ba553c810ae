// Parsing of M lists and name lists (see args.hpp).
#include "lab/args.hpp"

#include <algorithm>
#include <charconv>

#include "projkit/projkit.hpp"

namespace projkit::lab {
namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t next = text.find(sep, pos);
    out.push_back(text.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos));
    if (next == std::string_view::npos) break;
    pos = next + 1;
  }
  return out;
}

int parse_int(std::string_view tok, std::string_view whole) {
  int v = 0;
  auto [ptr, ec] = std::from_chars(tok.data(), tok.data() + tok.size(), v);
  if (tok.empty() || ec != std::errc() || ptr != tok.data() + tok.size())
    throw Error(StatusCode::invalid_argument,
                "bad M list '" + std::string(whole) + "': '" + std::string(tok) + "' is not an integer");
  if (v < 1) throw Error(StatusCode::invalid_argument, "bad M list '" + std::string(whole) + "': M must be >= 1");
  return v;
}

}  // namespace

std::vector<int> parse_m_list(std::string_view text) {
  std::vector<int> out;
  for (std::string_view tok : split(text, ',')) {
    const std::size_t dots = tok.find("..");
    int lo, hi;
    if (dots == std::string_view::npos) {
      lo = hi = parse_int(tok, text);
    } else {
      lo = parse_int(tok.substr(0, dots), text);
      hi = parse_int(tok.substr(dots + 2), text);
      if (hi < lo)
        throw Error(StatusCode::invalid_argument, "bad M list '" + std::string(text) + "': range " + std::string(tok) +
                                                      " is empty (A..B needs A <= B)");
    }
    for (int m = lo; m <= hi; ++m)
      if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  }
  return out;
}

std::vector<std::string> parse_name_list(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view tok : split(text, ',')) {
    if (tok.empty()) throw Error(StatusCode::invalid_argument, "bad name list '" + std::string(text) + "': empty name");
    out.emplace_back(tok);
  }
  return out;
}

}  // namespace projkit::lab
