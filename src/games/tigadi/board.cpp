#include "games/tigadi/board.h"

namespace tabula::tigadi {

int parse_point(std::string_view text) {
  for (int p = 0; p < kPoints; ++p)
    if (kPointNames[static_cast<size_t>(p)] == text) return p;
  return -1;
}

}  // namespace tabula::tigadi
