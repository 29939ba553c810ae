// sha256 of a plan file through OpenSSL's EVP digest API.
#include "file_sha256.hpp"

#include <openssl/evp.h>

#include <fstream>
#include <memory>
#include <vector>

#include "projkit/projkit.hpp"

namespace projkit::cli {

std::string file_sha256_hex(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(StatusCode::invalid_argument, "cannot read '" + path + "' to hash it");
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
    throw Error(StatusCode::internal, "OpenSSL: sha256 init failed");
  std::vector<char> buf(1 << 16);
  while (f) {
    f.read(buf.data(), std::streamsize(buf.size()));
    if (f.gcount() > 0 && EVP_DigestUpdate(ctx.get(), buf.data(), std::size_t(f.gcount())) != 1)
      throw Error(StatusCode::internal, "OpenSSL: sha256 update failed");
  }
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_DigestFinal_ex(ctx.get(), md, &len) != 1) throw Error(StatusCode::internal, "OpenSSL: sha256 final failed");
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

}  // namespace projkit::cli
