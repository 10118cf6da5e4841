// SHA-256 (FIPS 180-4), written out here because the server has no crypto library. It is used to keep
// seat tokens out of the database and out of memory: only their digests are stored and compared.
#pragma once

#include <string>
#include <string_view>

namespace tabula::server {

// The SHA-256 digest of `message`, as 64 lowercase hex characters.
std::string sha256_hex(std::string_view message);

}  // namespace tabula::server
