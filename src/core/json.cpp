#include "core/json.h"

#include <algorithm>

#include "core/error.h"

namespace tabula {

const json* find_field(const json& object, std::string_view key) {
  if (!object.is_object()) fail(ErrorKind::bad_request, "expected a JSON object");
  auto it = object.find(std::string(key));
  return it == object.end() ? nullptr : &*it;
}

std::string string_field(const json& object, std::string_view key) {
  const json* v = find_field(object, key);
  if (!v) fail(ErrorKind::bad_request, "missing field \"" + std::string(key) + "\"");
  if (!v->is_string()) fail(ErrorKind::bad_request, "field \"" + std::string(key) + "\" must be a string");
  return v->get<std::string>();
}

long long int_field(const json& object, std::string_view key, long long lo, long long hi) {
  const json* v = find_field(object, key);
  if (!v) fail(ErrorKind::bad_request, "missing field \"" + std::string(key) + "\"");
  if (!v->is_number_integer())
    fail(ErrorKind::bad_request, "field \"" + std::string(key) + "\" must be an integer");
  long long x = v->is_number_unsigned() && v->get<unsigned long long>() > static_cast<unsigned long long>(hi)
                    ? hi + 1
                    : v->get<long long>();
  if (x < lo || x > hi)
    fail(ErrorKind::bad_request, "field \"" + std::string(key) + "\" must be between " + std::to_string(lo) +
                                     " and " + std::to_string(hi));
  return x;
}

void require_known_fields(const json& object, std::initializer_list<std::string_view> known, std::string_view what) {
  if (!object.is_object()) fail(ErrorKind::bad_request, "expected a JSON object");
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || it.key() == k;
    if (!ok) fail(ErrorKind::bad_request, "unknown " + std::string(what) + " \"" + it.key() + "\"");
  }
}

int nesting_depth(std::string_view s) {
  int depth = 0, worst = 0;
  bool in_string = false, escaped = false;
  for (char c : s) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      worst = std::max(worst, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return worst;
}

}  // namespace tabula
