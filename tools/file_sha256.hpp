// sha256 of a file (OpenSSL EVP), hex encoded.
#pragma once
#include <string>

namespace projkit::cli {
// Throws projkit::Error naming the file when it cannot be read or hashed.
std::string file_sha256_hex(const std::string& path);
}  // namespace projkit::cli
