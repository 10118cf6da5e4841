// `tabula serve`: HTTP and WebSocket on one port, one I/O thread, C++20 coroutines over Boost.Beast.
// All Beast code lives in this file (a Beast translation unit is expensive to compile); the API's
// logic is in game_service.cpp and knows nothing of HTTP.
#include <utility>  // before Asio: Boost 1.74's coroutine support needs it with g++ 12

// g++ 12 reports Asio's coroutine frame operator delete as mismatched when frames are inlined (seen with
// -O1 and the sanitizers); Asio allocates and frees frames with its own matching pair.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

#include "server/ai_workers.h"
#include "server/game_service.h"
#include "server/server.h"
#include "server/storage.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace tabula::server {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace fs = std::filesystem;
using tcp = asio::ip::tcp;
using boost::system::error_code;
using asio::awaitable;
using asio::redirect_error;
using asio::use_awaitable;

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

constexpr auto kAuthTimeout = std::chrono::seconds(20);
constexpr auto kWriteTimeout = std::chrono::seconds(30);
constexpr auto kRefusalTimeout = std::chrono::seconds(2);
constexpr size_t kMaxQueuedPushes = 256;
// Refusals being written at once; past this a connection over a limit is closed without a word, so that a
// flood cannot turn refusals into a way of holding descriptors.
constexpr size_t kMaxRefusalsInFlight = 32;
// Descriptors kept free of connections: the database and its WAL, files being served, refusals, the
// listener, epoll and signals.
constexpr size_t kReservedDescriptors = 100;

// Sent with every answer. The pages load only their own scripts, styles and images (no inline code), talk
// only to their own origin, and may not be framed: tokens live in the page's storage, so a framing page
// could trick a click on Resign.
constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

struct Context {
  GameService& service;
  const Options& options;
  fs::path web_root;  // canonical, or empty when there is none
  Admission admission;
  size_t refusals_in_flight = 0;
};

// A connection counted by Admission, released when the coroutine that holds it ends.
class ConnectionSlot {
 public:
  ConnectionSlot(Admission& admission, std::string address) : admission_(&admission), address_(std::move(address)) {}
  ConnectionSlot(ConnectionSlot&& o) noexcept : admission_(std::exchange(o.admission_, nullptr)), address_(std::move(o.address_)) {}
  ConnectionSlot& operator=(ConnectionSlot&&) = delete;
  ~ConnectionSlot() {
    if (admission_) admission_->close_connection(address_);
  }
  const std::string& address() const { return address_; }

 private:
  Admission* admission_;
  std::string address_;
};

// A WebSocket counted by Admission per address, released with the WebSocket; and, once it authenticated
// as a spectator, counted on its game too.
class WebSocketSlot {
 public:
  WebSocketSlot(Admission& admission, std::string address) : admission_(admission), address_(std::move(address)) {}
  WebSocketSlot(const WebSocketSlot&) = delete;
  WebSocketSlot& operator=(const WebSocketSlot&) = delete;
  ~WebSocketSlot() {
    admission_.close_websocket(address_);
    if (!spectating_.empty()) admission_.close_spectator(spectating_);
  }
  bool spectate(const std::string& game) {
    if (!admission_.open_spectator(game)) return false;
    spectating_ = game;
    return true;
  }

 private:
  Admission& admission_;
  std::string address_;
  std::string spectating_;
};

beast::string_view bsv(std::string_view s) { return beast::string_view(s.data(), s.size()); }

std::string dump(const json& j) { return serialise(j); }

// ---- small HTTP helpers ------------------------------------------------------------------------------

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoding; nullopt on a malformed escape. `plus` turns '+' into ' ' (query strings).
std::optional<std::string> percent_decode(std::string_view s, bool plus) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+' && plus) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::map<std::string, std::string> parse_query(std::string_view q) {
  std::map<std::string, std::string> out;
  while (!q.empty()) {
    size_t amp = q.find('&');
    std::string_view part = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    if (part.empty()) continue;
    size_t eq = part.find('=');
    auto key = percent_decode(part.substr(0, eq), true);
    auto value = percent_decode(eq == std::string_view::npos ? std::string_view() : part.substr(eq + 1), true);
    if (!key || !value) fail(ErrorKind::bad_request, "malformed query string");
    out[*key] = *value;
  }
  return out;
}

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> out;
  while (!path.empty()) {
    if (path.front() == '/') {
      path.remove_prefix(1);
      continue;
    }
    size_t slash = path.find('/');
    out.push_back(path.substr(0, slash));
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash);
  }
  return out;
}

// The bearer token of the Authorization header: nullopt when there is no header; a header that is not
// a bearer token counts as a wrong token (empty string) so that it is refused, never ignored.
GameService::Token bearer_token(const Request& req) {
  auto it = req.find(http::field::authorization);
  if (it == req.end()) return std::nullopt;
  std::string_view v(it->value().data(), it->value().size());
  if (v.size() < 7 || !beast::iequals(bsv(v.substr(0, 7)), "bearer ")) return std::string();
  v.remove_prefix(7);
  while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
  while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
  return std::string(v);
}

void set_security_headers(Response& res) {
  res.set("Content-Security-Policy", kContentSecurityPolicy);
  res.set("X-Frame-Options", "DENY");
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "no-referrer");
  res.set("Cross-Origin-Opener-Policy", "same-origin");
}

Response make_response(unsigned version, bool keep_alive, http::status status, std::string body,
                       std::string_view type) {
  Response res{status, version};
  res.set(http::field::server, "tabula");
  res.set(http::field::content_type, bsv(type));
  set_security_headers(res);
  res.keep_alive(keep_alive);
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

Response make_response(const Request& req, http::status status, std::string body, std::string_view type) {
  return make_response(req.version(), req.keep_alive(), status, std::move(body), type);
}

Response json_response(const Request& req, int status, std::string body) {
  Response res = make_response(req, static_cast<http::status>(status), std::move(body), "application/json");
  res.set(http::field::cache_control, "no-store");  // answers may hold tokens or a seat's view
  return res;
}

Response json_response(const Request& req, int status, const json& body) { return json_response(req, status, dump(body)); }

Response error_response(const Request& req, int status, const std::string& message) {
  return json_response(req, status, json{{"error", message}});
}

// An answer to a request that could not be read (or was never read): HTTP/1.1, and the connection closes.
Response closing_error(int status, const std::string& message) {
  Response res = make_response(11, false, static_cast<http::status>(status), dump(json{{"error", message}}),
                               "application/json");
  res.set(http::field::cache_control, "no-store");
  return res;
}

// 429 and 503 say when to come back.
Response retry_later(Response res) {
  res.set(http::field::retry_after, "1");
  return res;
}

std::string_view content_type(const fs::path& p) {
  static const std::map<std::string, std::string_view> types = {
      {".html", "text/html; charset=utf-8"},   {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"}, {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},     {".svg", "image/svg+xml"},
      {".png", "image/png"},                   {".json", "application/json"},
      {".ico", "image/x-icon"},                {".txt", "text/plain; charset=utf-8"},
      {".woff2", "font/woff2"},                {".webmanifest", "application/manifest+json"},
  };
  auto it = types.find(p.extension().string());
  return it == types.end() ? std::string_view("application/octet-stream") : it->second;
}

Response static_file(const Request& req, const Context& ctx, std::string_view raw_path) {
  auto not_found = [&] { return make_response(req, http::status::not_found, "not found\n", "text/plain; charset=utf-8"); };
  if (ctx.web_root.empty()) return not_found();
  auto decoded = percent_decode(raw_path, false);
  if (!decoded) return make_response(req, http::status::bad_request, "bad path\n", "text/plain; charset=utf-8");
  std::string path = *decoded;
  if (path == "/" || path.empty()) path = "/index.html";
  if (path.find('\0') != std::string::npos || path.find('\\') != std::string::npos) return not_found();
  fs::path rel;
  for (std::string_view seg : split_path(path)) {
    if (seg == ".." || seg == "." || seg.front() == '.') return not_found();  // traversal, dotfiles
    rel /= std::string(seg);
  }
  if (rel.empty()) return not_found();
  std::error_code ec;
  fs::path full = fs::weakly_canonical(ctx.web_root / rel, ec);
  if (ec) return not_found();
  // Symlinks out of the web root are refused too.
  auto [root_end, _] = std::mismatch(ctx.web_root.begin(), ctx.web_root.end(), full.begin(), full.end());
  if (root_end != ctx.web_root.end() || !fs::is_regular_file(full, ec)) return not_found();
  std::ifstream in(full, std::ios::binary);
  if (!in) return not_found();
  std::ostringstream body;
  body << in.rdbuf();
  return make_response(req, http::status::ok, body.str(), content_type(full));
}

// ---- the API -----------------------------------------------------------------------------------------

json parse_body(const Request& req) {
  const std::string& body = req.body();
  json j = json::parse(body, nullptr, false);
  if (j.is_discarded()) fail(ErrorKind::bad_request, "malformed JSON body");
  return j;
}

Response method_not_allowed(const Request& req, std::string_view allow) {
  Response res = error_response(req, 405, "method not allowed");
  res.set(http::field::allow, bsv(allow));
  return res;
}

// Creating games (a new one, an imported record) is limited per address (admission.h).
Response too_many_games(const Request& req, const Context& ctx) {
  return retry_later(error_response(req, 429, "this address has created " +
                                                  std::to_string(ctx.admission.limits().games_per_hour) +
                                                  " games in the last hour; try again later"));
}

Response api(const Request& req, Context& ctx, const std::string& address, const std::vector<std::string_view>& seg,
             std::string_view query) {
  GameService& svc = ctx.service;
  const http::verb m = req.method();
  const bool get = m == http::verb::get || m == http::verb::head;
  const bool post = m == http::verb::post;
  // seg[0] == "api"
  if (seg.size() == 2 && seg[1] == "records") {
    if (!post) return method_not_allowed(req, "POST");
    const auto now = Admission::Clock::now();
    if (!ctx.admission.may_create_game(address, now)) return too_many_games(req, ctx);
    Response res = json_response(req, 201, svc.import_record(parse_body(req)));
    ctx.admission.created_game(address, now);
    return res;
  }
  if (seg.size() < 2 || seg[1] != "games") return error_response(req, 404, "no such endpoint");
  if (seg.size() == 2) {
    if (get) return json_response(req, 200, svc.list(parse_query(query)));
    if (post) {
      const auto now = Admission::Clock::now();
      if (!ctx.admission.may_create_game(address, now)) return too_many_games(req, ctx);
      Response res = json_response(req, 201, svc.create(parse_body(req)));
      ctx.admission.created_game(address, now);
      return res;
    }
    return method_not_allowed(req, "GET, POST");
  }
  if (seg.size() == 3 && seg[2] == "kinds") {
    if (!get) return method_not_allowed(req, "GET");
    return json_response(req, 200, svc.kinds());
  }
  const std::string id(seg[2]);
  if (seg.size() == 3) {
    if (!get) return method_not_allowed(req, "GET");
    return json_response(req, 200, svc.get_text(id, bearer_token(req)));
  }
  if (seg.size() == 4) {
    const std::string_view what = seg[3];
    if (what == "record") {
      if (!get) return method_not_allowed(req, "GET");
      return json_response(req, 200, svc.record(id));
    }
    if (what == "record.txt") {
      if (!get) return method_not_allowed(req, "GET");
      Response res = make_response(req, http::status::ok, svc.record_text(id, bearer_token(req)),
                                   "text/plain; charset=utf-8");
      res.set(http::field::cache_control, "no-store");  // a seat's view while the game is on
      res.set(http::field::content_disposition, "attachment; filename=\"tabula-" + id + ".txt\"");
      return res;
    }
    if (what == "analysis") {
      if (post) return json_response(req, 200, svc.start_analysis(id));
      if (!get) return method_not_allowed(req, "GET, POST");
      return json_response(req, 200, svc.analysis(id));
    }
    if (what == "takeback" || what == "hint" || what == "rematch") {
      if (!post) return method_not_allowed(req, "POST");
      json body = parse_body(req);
      if (what == "takeback") return json_response(req, 200, svc.takeback(id, bearer_token(req), body));
      if (what == "hint") return json_response(req, 200, svc.hint(id, bearer_token(req), body));
      return json_response(req, 200, svc.rematch(id, bearer_token(req), body));
    }
    if (what == "join" || what == "moves" || what == "setup" || what == "offers") {
      if (!post) return method_not_allowed(req, "POST");
      json body = parse_body(req);
      if (what == "join") return json_response(req, 200, svc.join(id, body));
      if (what == "moves") return json_response(req, 200, svc.move(id, bearer_token(req), body));
      if (what == "setup") return json_response(req, 200, svc.setup(id, bearer_token(req), body));
      return json_response(req, 200, svc.offer(id, bearer_token(req), body));
    }
  }
  if (seg.size() == 5 && seg[3] == "seats") {
    if (!post) return method_not_allowed(req, "POST");
    json body = parse_body(req);
    return json_response(req, 200, svc.hand_seat(id, bearer_token(req), seg[4], body));
  }
  return error_response(req, 404, "no such endpoint");
}

Response handle(const Request& req, Context& ctx, const std::string& address) {
  std::string_view target(req.target().data(), req.target().size());
  size_t q = target.find('?');
  std::string_view path = target.substr(0, q);
  std::string_view query = q == std::string_view::npos ? std::string_view() : target.substr(q + 1);
  std::vector<std::string_view> seg = split_path(path);

  if (path == "/healthz") return make_response(req, http::status::ok, "ok", "text/plain; charset=utf-8");
  if (!seg.empty() && seg[0] == "api") {
    try {
      return api(req, ctx, address, seg, query);
    } catch (const GameError& e) {
      return error_response(req, http_status(e.kind()), e.what());
    } catch (const StorageError& e) {
      std::fprintf(stderr, "storage error: %s\n", e.what());
      return error_response(req, 500, "storage error");
    } catch (const std::exception& e) {
      std::fprintf(stderr, "internal error: %s\n", e.what());
      return error_response(req, 500, "internal error");
    }
  }
  if (!seg.empty() && seg[0] == "ws") return error_response(req, 400, "a WebSocket upgrade is expected here");
  if (req.method() != http::verb::get && req.method() != http::verb::head) return method_not_allowed(req, "GET");
  return static_file(req, ctx, path);
}

void log_request(const Request& req, unsigned status, std::chrono::steady_clock::time_point start) {
  // The target never holds a token (tokens travel in the Authorization header only).
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  std::string target(req.target());
  if (target.size() > 200) target = target.substr(0, 200) + "…";
  std::fprintf(stderr, "%s %s %u %.1fms\n", std::string(req.method_string()).c_str(), target.c_str(), status,
               static_cast<double>(us) / 1000.0);
}

// ---- WebSocket -----------------------------------------------------------------------------------------

// One WebSocket connection. Pushes from the service are queued and written one at a time by a writer
// coroutine; the reader runs beside it (Beast allows one read and one write at once).
class WsConnection : public std::enable_shared_from_this<WsConnection> {
 public:
  explicit WsConnection(beast::tcp_stream stream) : ws_(std::move(stream)) {}
  websocket::stream<beast::tcp_stream>& ws() { return ws_; }

  void push(std::string message) {
    if (closed_) return;
    if (queue_.size() >= kMaxQueuedPushes) {  // a client that reads nothing is dropped
      close();
      return;
    }
    queue_.push_back(std::move(message));
    if (!writing_) {
      writing_ = true;
      asio::co_spawn(ws_.get_executor(), write_loop(shared_from_this()), asio::detached);
    }
  }
  void close() {
    if (closed_) return;
    closed_ = true;
    queue_.clear();
    error_code ec;
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(ws_).close();
  }
  bool closed() const { return closed_; }
  bool writing() const { return writing_; }

 private:
  static awaitable<void> write_loop(std::shared_ptr<WsConnection> self) {
    while (!self->queue_.empty() && !self->closed_) {
      std::string message = std::move(self->queue_.front());
      self->queue_.pop_front();
      error_code ec;
      self->ws_.text(true);
      co_await self->ws_.async_write(asio::buffer(message), redirect_error(use_awaitable, ec));
      if (ec) {
        self->close();
        break;
      }
    }
    self->writing_ = false;
  }

  websocket::stream<beast::tcp_stream> ws_;
  std::deque<std::string> queue_;
  bool writing_ = false;
  bool closed_ = false;
};

awaitable<void> websocket_session(beast::tcp_stream stream, Request req, std::string game_id, Context& ctx,
                                  std::string address) {
  WebSocketSlot counted(ctx.admission, address);
  auto conn = std::make_shared<WsConnection>(std::move(stream));
  auto& ws = conn->ws();
  ws.set_option(websocket::stream_base::timeout{kAuthTimeout, websocket::stream_base::none(), false});
  beast::get_lowest_layer(ws).expires_never();
  ws.read_message_max(ctx.options.max_body);
  ws.set_option(websocket::stream_base::decorator(
      [](websocket::response_type& res) { res.set(http::field::server, "tabula"); }));
  error_code ec;
  co_await ws.async_accept(req, redirect_error(use_awaitable, ec));
  if (ec) co_return;
  std::fprintf(stderr, "WS %s open\n", game_id.c_str());

  auto send_error_and_close = [&](const std::string& message,
                                  websocket::close_code code = websocket::close_code::policy_error) -> awaitable<void> {
    error_code e;
    std::string text = dump(json{{"type", "error"}, {"error", message}});
    ws.text(true);
    co_await ws.async_write(asio::buffer(text), redirect_error(use_awaitable, e));
    co_await ws.async_close(code, redirect_error(use_awaitable, e));
  };

  // The first message authenticates, within kAuthTimeout (a timer closes a silent connection).
  beast::flat_buffer buffer;
  asio::steady_timer auth_timer(ws.get_executor());
  auth_timer.expires_after(kAuthTimeout);
  std::weak_ptr<WsConnection> weak = conn;
  auth_timer.async_wait([weak](error_code e) {
    if (e) return;
    if (auto c = weak.lock()) c->close();
  });
  co_await ws.async_read(buffer, redirect_error(use_awaitable, ec));
  auth_timer.cancel();
  if (ec) co_return;
  Player viewer = kSpectator;
  {
    json msg = json::parse(beast::buffers_to_string(buffer.data()), nullptr, false);
    buffer.consume(buffer.size());
    if (msg.is_discarded() || !msg.is_object() || msg.value("type", json()) != "auth") {
      co_await send_error_and_close("the first message must be {\"type\":\"auth\"} with an optional token");
      co_return;
    }
    GameService::Token token;
    if (auto it = msg.find("token"); it != msg.end() && !it->is_null()) {
      token = it->is_string() ? it->get<std::string>() : std::string();
    }
    std::string error;
    try {
      viewer = ctx.service.authenticate(game_id, token);
    } catch (const GameError& e) {
      error = e.what();
    }
    if (!error.empty()) {
      co_await send_error_and_close(error);
      co_return;
    }
    if (viewer == kSpectator && !counted.spectate(game_id)) {
      co_await send_error_and_close("this game has as many spectators as it can take; try again later",
                                    websocket::close_code::try_again_later);
      co_return;
    }
  }
  ws.set_option(websocket::stream_base::timeout{kAuthTimeout, std::chrono::seconds(60), true});

  uint64_t subscription = 0;
  {
    std::string error;
    try {
      subscription = ctx.service.subscribe(game_id, viewer, [weak](const std::string& m) {
        if (auto c = weak.lock()) c->push(m);
      });
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (!error.empty()) {
      co_await send_error_and_close(error);
      co_return;
    }
  }

  // Clients have nothing more to say; reading detects the close (and answers pings). Messages count
  // against the address's request rate: a client that floods is closed with 1008 (policy violation).
  for (;;) {
    co_await ws.async_read(buffer, redirect_error(use_awaitable, ec));
    if (ec) break;
    buffer.consume(buffer.size());
    if (!ctx.admission.take_request(address, Admission::Clock::now())) {
      std::fprintf(stderr, "WS %s closed: too many messages from %s\n", game_id.c_str(), address.c_str());
      ctx.service.unsubscribe(game_id, subscription);
      subscription = 0;
      co_await ws.async_close(websocket::close_reason(websocket::close_code::policy_error, "too many messages"),
                              redirect_error(use_awaitable, ec));
      break;
    }
  }
  if (subscription) ctx.service.unsubscribe(game_id, subscription);
  conn->close();
  std::fprintf(stderr, "WS %s closed\n", game_id.c_str());
}

// ---- HTTP connections ----------------------------------------------------------------------------------

// After an answer that closes the connection (a 413, a refusal) the client's request may still be on its way:
// stop sending, then read and drop what comes for a while, so that the client reads the answer rather than a
// reset (closing a socket with unread data sends a reset, which may overtake the answer).
awaitable<void> linger(beast::tcp_stream& stream, std::chrono::seconds for_at_most = std::chrono::seconds(5),
                       size_t bytes_at_most = 64 * 1024 * 1024) {
  error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_send, ec);
  std::vector<char> scratch(16 * 1024);
  size_t total = 0;
  stream.expires_after(for_at_most);
  while (total < bytes_at_most) {
    size_t n = co_await stream.async_read_some(asio::buffer(scratch), redirect_error(use_awaitable, ec));
    if (ec) break;
    total += n;
  }
  stream.close();
}

// What is wrong with a request's framing, if anything. A request whose length two parties could read
// differently (a proxy and us) is the start of request smuggling, so anything ambiguous is refused.
std::optional<std::string> framing_problem(const Request& req) {
  const auto lengths = std::distance(req.equal_range(http::field::content_length).first,
                                     req.equal_range(http::field::content_length).second);
  const auto encodings = std::distance(req.equal_range(http::field::transfer_encoding).first,
                                       req.equal_range(http::field::transfer_encoding).second);
  if (lengths > 1) return "more than one Content-Length";
  if (encodings > 1) return "more than one Transfer-Encoding";
  if (encodings == 1) {
    if (lengths == 1) return "both Transfer-Encoding and Content-Length";
    std::string_view te(req[http::field::transfer_encoding].data(), req[http::field::transfer_encoding].size());
    while (!te.empty() && (te.front() == ' ' || te.front() == '\t')) te.remove_prefix(1);
    while (!te.empty() && (te.back() == ' ' || te.back() == '\t')) te.remove_suffix(1);
    if (!beast::iequals(bsv(te), "chunked")) return "a Transfer-Encoding other than chunked";
  }
  return std::nullopt;
}

// The errors that mean the client went away (or we stopped reading), as opposed to a malformed request.
bool is_disconnect(const error_code& ec) {
  return ec == http::error::end_of_stream || ec == http::error::partial_message || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::operation_aborted ||
         ec == asio::error::broken_pipe || ec == beast::error::timeout;
}

// The state a request's deadline timer shares with its connection: the timer may fire after the
// connection's coroutine has moved on, so it reaches the socket only through this.
struct ReadDeadline {
  explicit ReadDeadline(tcp::socket& s) : socket(&s) {}
  tcp::socket* socket;  // null once the connection no longer reads
  bool expired = false;
};

awaitable<void> write_and_log(beast::tcp_stream& stream, const Request& req, Response& res,
                              std::chrono::steady_clock::time_point start, error_code& ec) {
  if (req.method() == http::verb::head) {
    // The GET's headers, its Content-Length included, and no body: a client reading the next answer on
    // this connection must find it where it expects it.
    const auto size = res.body().size();
    res.body().clear();
    res.content_length(size);
  }
  log_request(req, res.result_int(), start);
  stream.expires_after(kWriteTimeout);
  co_await http::async_write(stream, res, redirect_error(use_awaitable, ec));
  stream.expires_never();
}

awaitable<void> http_session(tcp::socket socket, Context& ctx, ConnectionSlot slot) {
  const std::string& address = slot.address();
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  const auto request_timeout = std::chrono::seconds(ctx.options.limits.request_timeout_s);
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(ctx.options.limits.max_header));
    parser.body_limit(ctx.options.max_body);
    error_code ec;

    // The whole request, header and body, must arrive within the timeout; so must the first byte of the
    // next one on a kept-alive connection. Beast's own timeout would close the socket, leaving no way to
    // say 408, so a timer cancels the read instead.
    auto deadline_state = std::make_shared<ReadDeadline>(stream.socket());
    asio::steady_timer deadline(stream.get_executor());
    deadline.expires_after(request_timeout);
    deadline.async_wait([deadline_state](error_code e) {
      if (e || !deadline_state->socket) return;
      deadline_state->expired = true;
      error_code ignored;
      deadline_state->socket->cancel(ignored);
    });
    stream.expires_never();
    co_await http::async_read_header(stream, buffer, parser, redirect_error(use_awaitable, ec));
    std::optional<std::string> framing;
    if (!ec) framing = framing_problem(parser.get());
    if (!ec && !framing && !parser.is_done()) {
      // `Expect: 100-continue` (curl, for larger bodies): say go on, unless the body is too large anyway.
      auto expect = parser.get().find(http::field::expect);
      const auto length = parser.content_length();
      const bool too_large = length && *length > ctx.options.max_body;
      if (expect != parser.get().end() && beast::iequals(expect->value(), "100-continue") && !too_large) {
        http::response<http::empty_body> go_on{http::status::continue_, parser.get().version()};
        co_await http::async_write(stream, go_on, redirect_error(use_awaitable, ec));
      }
      if (!ec) co_await http::async_read(stream, buffer, parser, redirect_error(use_awaitable, ec));
    }
    deadline_state->socket = nullptr;
    deadline.cancel();
    const auto start = std::chrono::steady_clock::now();

    std::optional<Response> refusal;  // an answer after which the connection closes
    if (framing) {
      refusal = closing_error(400, "malformed request framing: " + *framing);
    } else if (deadline_state->expired) {
      // Silence between requests is an idle connection closing; a request begun and not finished is not.
      if (buffer.size() > 0 || parser.got_some())
        refusal = closing_error(408, "the request did not arrive within " +
                                         std::to_string(ctx.options.limits.request_timeout_s) + " s");
      else
        break;
    } else if (ec == http::error::body_limit) {
      Request req = parser.get();  // the header is complete
      req.keep_alive(false);
      Response res = error_response(req, 413, "the body is larger than " + std::to_string(ctx.options.max_body) + " bytes");
      co_await write_and_log(stream, req, res, start, ec);
      co_await linger(stream);
      co_return;
    } else if (ec == http::error::header_limit) {
      refusal = closing_error(431, "the request's header is larger than " +
                                       std::to_string(ctx.options.limits.max_header) + " bytes");
    } else if (ec && is_disconnect(ec)) {
      break;
    } else if (ec) {
      refusal = closing_error(400, "malformed request: " + ec.message());
    }
    if (refusal) {
      std::fprintf(stderr, "refused %s: %u %s\n", address.c_str(), refusal->result_int(), refusal->body().c_str());
      stream.expires_after(kRefusalTimeout);
      co_await http::async_write(stream, *refusal, redirect_error(use_awaitable, ec));
      if (!ec) co_await linger(stream, kRefusalTimeout, 64 * 1024);
      co_return;
    }
    Request req = parser.release();

    if (!ctx.admission.take_request(address, Admission::Clock::now())) {
      Response res = retry_later(error_response(req, 429, "too many requests from your address; slow down"));
      co_await write_and_log(stream, req, res, start, ec);
      if (ec || !res.keep_alive()) break;
      continue;
    }

    std::string_view target(req.target().data(), req.target().size());
    std::vector<std::string_view> seg = split_path(target.substr(0, target.find('?')));
    if (websocket::is_upgrade(req)) {
      if (seg.size() == 3 && seg[0] == "ws" && seg[1] == "games") {
        std::string id(seg[2]);
        std::optional<Response> refused;
        try {
          ctx.service.authenticate(id, std::nullopt);  // 404 for an unknown game, before upgrading
        } catch (const GameError& e) {
          refused = error_response(req, http_status(e.kind()), e.what());
        }
        if (!refused && ctx.admission.open_websocket(address) != Admission::Verdict::ok)
          refused = retry_later(error_response(req, 429, "too many WebSockets from your address"));
        if (refused) {
          refused->keep_alive(false);
          co_await write_and_log(stream, req, *refused, start, ec);
          break;
        }
        log_request(req, 101, start);
        co_await websocket_session(std::move(stream), std::move(req), std::move(id), ctx, address);
        co_return;
      }
      Response res = error_response(req, 404, "no such endpoint");
      res.keep_alive(false);
      co_await write_and_log(stream, req, res, start, ec);
      break;
    }

    Response res = handle(req, ctx, address);
    co_await write_and_log(stream, req, res, start, ec);
    if (ec || !res.keep_alive()) break;
  }
  error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  stream.close();
}

// A connection over a limit gets one short answer (no request is read) and is closed.
awaitable<void> refuse(tcp::socket socket, Context& ctx, Response res) {
  ++ctx.refusals_in_flight;
  beast::tcp_stream stream(std::move(socket));
  stream.expires_after(kRefusalTimeout);
  error_code ec;
  co_await http::async_write(stream, res, redirect_error(use_awaitable, ec));
  if (!ec) co_await linger(stream, std::chrono::seconds(1), 16 * 1024);
  stream.close();
  --ctx.refusals_in_flight;
}

awaitable<void> listen(tcp::acceptor& acceptor, Context& ctx) {
  auto executor = co_await asio::this_coro::executor;
  for (;;) {
    error_code ec;
    tcp::socket socket = co_await acceptor.async_accept(redirect_error(use_awaitable, ec));
    if (ec) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
      std::fprintf(stderr, "accept: %s\n", ec.message().c_str());
      asio::steady_timer pause(executor, std::chrono::milliseconds(100));  // e.g. out of file descriptors
      co_await pause.async_wait(redirect_error(use_awaitable, ec));
      continue;
    }
    const auto remote = socket.remote_endpoint(ec);
    if (ec) continue;  // gone already; the socket closes here
    std::string address = address_key(remote.address().to_string());
    const Admission::Verdict verdict = ctx.admission.open_connection(address);
    if (verdict == Admission::Verdict::ok) {
      asio::co_spawn(executor, http_session(std::move(socket), ctx, ConnectionSlot(ctx.admission, std::move(address))),
                     asio::detached);
      continue;
    }
    if (ctx.refusals_in_flight >= kMaxRefusalsInFlight) continue;  // closed without a word
    Response res = verdict == Admission::Verdict::per_address
                       ? closing_error(429, "too many connections from your address")
                       : closing_error(503, "the server has as many connections as it can take; try again shortly");
    asio::co_spawn(executor, refuse(std::move(socket), ctx, retry_later(std::move(res))), asio::detached);
  }
}

// Raises the soft descriptor limit to the hard one and keeps the connection limit below it, so that the
// server refuses connections with an answer long before accept() would fail for want of descriptors.
Limits fit_to_descriptors(Limits limits) {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return limits;
  if (rl.rlim_cur < rl.rlim_max) {
    rlimit raised = rl;
    raised.rlim_cur = rl.rlim_max == RLIM_INFINITY ? std::max<rlim_t>(rl.rlim_cur, 1 << 16) : rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) rl = raised;
  }
  const size_t available = static_cast<size_t>(rl.rlim_cur);
  const size_t reserve = available > 2 * kReservedDescriptors ? kReservedDescriptors : available / 2;
  const size_t room = std::max<size_t>(available - reserve, 1);
  if (limits.max_connections > room) {
    std::fprintf(stderr, "tabula serve: at most %zu connections (the descriptor limit is %zu)\n", room, available);
    limits.max_connections = room;
  }
  return limits;
}

}  // namespace

int run(const Options& options) {
  const std::string db_path = options.db_path.empty() ? default_db_path() : options.db_path;
  std::unique_ptr<Storage> storage;
  try {
    storage = std::make_unique<Storage>(db_path);
  } catch (const StorageError& e) {
    std::fprintf(stderr, "tabula serve: %s\n", e.what());
    return 2;
  }

  auto ioc = std::make_unique<asio::io_context>(1);
  AiWorkers workers(options.ai_threads, [io = ioc.get()](std::function<void()> fn) { asio::post(*io, std::move(fn)); });
  std::unique_ptr<GameService> service;
  try {
    GameService::Config config;
    config.ai_ms = options.ai_ms;
    config.ai_nodes = options.ai_nodes;
    config.test_seed = options.test_seed;
    if (options.test_seed != 0)
      std::fprintf(stderr, "tabula serve: --test-seed %llu: the AI's choices are predictable (for tests only)\n",
                   static_cast<unsigned long long>(options.test_seed));
    service = std::make_unique<GameService>(
        *storage,
        [&workers](AiWorkers::Lane lane, AiWorkers::Job job, AiWorkers::Done done) {
          workers.submit(lane, std::move(job), std::move(done));
        },
        config);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tabula serve: cannot load the games of %s: %s\n", db_path.c_str(), e.what());
    workers.stop();
    return 2;
  }

  fs::path web_root;
  if (!options.web_root.empty()) {
    std::error_code ec;
    web_root = fs::canonical(options.web_root, ec);
    if (ec) {
      std::fprintf(stderr, "tabula serve: warning: web root %s: %s (the UI is not served)\n", options.web_root.c_str(),
                   ec.message().c_str());
      web_root.clear();
    }
  }
  Context ctx{*service, options, web_root, Admission(fit_to_descriptors(options.limits))};

  {
    // The acceptor and the signals belong to the io_context: they go before it does.
    tcp::acceptor acceptor(*ioc);
    try {
      tcp::resolver resolver(*ioc);
      auto results = resolver.resolve(options.host, std::to_string(options.port));
      if (results.empty()) throw std::runtime_error("no address");
      tcp::endpoint endpoint = results.begin()->endpoint();
      // With --test-seed a client can predict the AI and its seats' hidden setups: only a test on this machine.
      if (options.test_seed != 0 && !endpoint.address().is_loopback()) {
        std::fprintf(stderr, "tabula serve: --test-seed is for tests on this machine only; refused on %s\n",
                     endpoint.address().to_string().c_str());
        workers.stop();
        return 2;
      }
      acceptor.open(endpoint.protocol());
      acceptor.set_option(asio::socket_base::reuse_address(true));
      acceptor.bind(endpoint);
      acceptor.listen(asio::socket_base::max_listen_connections);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tabula serve: cannot listen on %s:%d: %s\n", options.host.c_str(), options.port, e.what());
      workers.stop();
      return 1;
    }
    const auto local = acceptor.local_endpoint();
    std::fprintf(stderr, "tabula serve: http://%s:%u/ (database %s, %zu games)\n",
                 local.address().to_string().c_str(), static_cast<unsigned>(local.port()), db_path.c_str(),
                 service->game_count());

    asio::signal_set signals(*ioc, SIGINT, SIGTERM);
    signals.async_wait([&](const error_code& ec, int signo) {
      if (ec) return;
      std::fprintf(stderr, "tabula serve: signal %d, stopping\n", signo);
      error_code ignored;
      acceptor.close(ignored);
      workers.stop();  // ends running searches; nothing is lost: every acknowledged action is stored
      ioc->stop();
    });
    asio::co_spawn(*ioc, listen(acceptor, ctx), asio::detached);

    int status = 0;
    try {
      ioc->run();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tabula serve: %s\n", e.what());
      status = 1;
    }
    workers.stop();
    if (status != 0) return status;
  }
  // Pending coroutines (open connections) are destroyed here, while the service still exists.
  ioc.reset();
  service.reset();
  return 0;
}

}  // namespace tabula::server
