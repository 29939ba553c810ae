// Command-line value parsing shared by the CLI and tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace projkit::lab {

// "1..256", "1,8,32", or a mix "1..4,8,16" -> M values in order, duplicates dropped.
// Throws Error(invalid_argument) naming the bad token.
std::vector<int> parse_m_list(std::string_view text);
// "qkv,o" -> {"qkv", "o"}; empty tokens are an error.
std::vector<std::string> parse_name_list(std::string_view text);

}  // namespace projkit::lab
