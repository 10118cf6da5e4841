// JSON for every layer: nlohmann::json under the project's name, and small helpers for reading requests.
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>
#include <string_view>

namespace tabula {

using json = nlohmann::json;

// A JSON object's field as a given type, or a GameError(bad_request) naming the field. Defined in json.cpp.
const json* find_field(const json& object, std::string_view key);
std::string string_field(const json& object, std::string_view key);
long long int_field(const json& object, std::string_view key, long long lo, long long hi);
// GameError(bad_request) naming the first key of `object` not in `known`, e.g. "unknown state field \"x\"".
void require_known_fields(const json& object, std::initializer_list<std::string_view> known, std::string_view what);
// The nesting depth of a JSON text, counted outside strings without parsing it, so that hostile input is
// refused before a recursive parser could go that deep.
int nesting_depth(std::string_view text);

}  // namespace tabula
