// The one error type that crosses layers. Its kind maps to an HTTP status in the server and to an
// "ok":false answer in the engine protocol; its message is shown to the user as it is.
#pragma once

#include <stdexcept>
#include <string>

namespace tabula {

enum class ErrorKind {
  bad_request,    // malformed input: wrong JSON shape, unknown option, unparsable move (HTTP 400)
  illegal,        // well-formed but against the rules: illegal move or setup (HTTP 422)
  not_your_turn,  // a move from a seat that is not to move (HTTP 409)
  conflict,       // the phase does not allow it, or the game is over (HTTP 409)
  not_found,      // unknown game or kind (HTTP 404)
  unauthorized,   // missing or wrong token (HTTP 401)
};

class GameError : public std::runtime_error {
 public:
  GameError(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

[[noreturn]] inline void fail(ErrorKind kind, const std::string& message) { throw GameError(kind, message); }

}  // namespace tabula
