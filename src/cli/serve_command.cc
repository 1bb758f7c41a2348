// `errdex serve [--db FILE] [--listen 127.0.0.1:8080] [--threads N] [--cache-mb N] [--no-access-log]
// [--head-timeout S] [--body-timeout S] [--idle-timeout S] [--max-connections N]
// [--max-connections-per-address N] [--max-queued N]` (docs/web.md)
#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "catalog/sqlite_db.h"
#include "cli/commands.h"
#include "web/server.h"

namespace errdex {

void RegisterServeCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve", "Serve the error pages, the search and the JSON API over HTTP");
  struct Options {
    std::string db, listen = "127.0.0.1:8080";
    int threads = 0;
    int cache_mb = 64;
    bool no_access_log = false;
    web::ServerOptions limits;  // the connection limits below
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("--db", o->db, "Catalog file (default: $ERRDEX_DB, else ./errdex.db)");
  cmd->add_option("--listen", o->listen, "Address to listen on: HOST:PORT, [IPV6]:PORT or PORT (0: any free port)");
  cmd->add_option("--threads", o->threads, "Worker threads (default 64)")->check(CLI::Range(1, 1024));
  cmd->add_option("--cache-mb", o->cache_mb, "Megabytes of rendered pages kept until the catalog changes (0: none)")
      ->check(CLI::Range(0, 65536));
  cmd->add_flag("--no-access-log", o->no_access_log, "No line per request on stderr");
  cmd->add_option("--head-timeout", o->limits.head_timeout_seconds, "Seconds for a request's head to arrive (5)")
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--body-timeout", o->limits.body_timeout_seconds, "Seconds for a request's body to arrive (30)")
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--idle-timeout", o->limits.keep_alive_seconds, "Seconds an idle keep-alive connection is kept (5)")
      ->check(CLI::Range(1, 3600));
  cmd->add_option("--max-connections", o->limits.max_connections, "Connections at most (4096)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--max-connections-per-address", o->limits.max_connections_per_address,
                  "Connections of one client address at most (256)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--max-queued", o->limits.max_queued_requests,
                  "Complete requests waiting for a worker at most; more get 503 (1024)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->callback([o] {
    web::ServerOptions options = o->limits;
    options.catalog = o->db.empty() ? DefaultCatalogPath() : o->db;
    options.threads = o->threads;
    options.access_log = !o->no_access_log;
    options.cache_bytes = static_cast<size_t>(o->cache_mb) << 20;
    if (!web::ParseListenAddress(o->listen, &options)) {
      std::cerr << "errdex serve: --listen wants HOST:PORT, [IPV6]:PORT or PORT, not '" << o->listen << "'\n";
      SetCommandExitCode(2);
      return;
    }
    // SIGINT and SIGTERM are taken by one thread (every thread started later inherits the mask), which
    // stops the server: requests in progress finish, then Run returns.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
    signal(SIGPIPE, SIG_IGN);
    try {
      web::WebServer server(options);
      const int port = server.Bind();
      const bool v6 = options.host.find(':') != std::string::npos;
      std::fprintf(stderr, "errdex serve: listening on http://%s%s%s:%d/ (catalog %s)\n", v6 ? "[" : "",
                   options.host.c_str(), v6 ? "]" : "", port, options.catalog.c_str());
      std::fflush(stderr);
      std::atomic<bool> done{false};
      std::thread waiter([&] {
        const timespec slice{0, 100'000'000};
        bool stopping = false;
        while (!done) {
          if (stopping) {
            server.Stop();  // again until Run has returned: a signal may come before it listens
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            continue;
          }
          const int sig = sigtimedwait(&stop_signals, nullptr, &slice);
          if (sig == SIGINT || sig == SIGTERM) {
            std::fprintf(stderr, "errdex serve: %s, stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
            stopping = true;
          }
        }
      });
      const bool ok = server.Run();
      done = true;
      waiter.join();
      std::fprintf(stderr, "errdex serve: stopped\n");
      SetCommandExitCode(ok ? 0 : 1);
    } catch (const std::exception& e) {
      std::cerr << "errdex: " << e.what() << "\n";
      SetCommandExitCode(1);
    }
  });
}

}  // namespace errdex
