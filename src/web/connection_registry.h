// The connections of `errdex serve`'s front end (web/http_front_end.h), counted per client address, and
// the order in which they began waiting for input: when a limit is reached, the connection that has
// waited longest (an idle keep-alive connection, a head or body that is still arriving, a connection
// lingering after its last answer) is the one to shed. A connection whose request is being served or
// whose answer is being written is busy and never shed.
//
// Threading: none; the front end's event loop owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>

namespace errdex::web {

class ConnectionRegistry {
 public:
  using Id = uint64_t;

  // A new connection from ADDRESS, busy until MarkWaiting. ID must not be registered.
  void Add(Id id, const std::string& address);
  // Forgets ID (no-op when unknown).
  void Remove(Id id);
  // ID waits for input from now on: it becomes the youngest waiting connection.
  void MarkWaiting(Id id);
  // ID is being served: it cannot be shed.
  void MarkBusy(Id id);

  size_t total() const { return connections_.size(); }
  size_t CountOf(const std::string& address) const;
  // The connection that has waited longest (of ADDRESS); none when every one is busy.
  std::optional<Id> OldestWaiting() const;
  std::optional<Id> OldestWaitingOf(const std::string& address) const;

 private:
  struct Address {
    size_t connections = 0;
    std::list<Id> waiting;  // oldest first
  };
  struct Entry {
    std::unordered_map<std::string, Address>::iterator address;
    bool waiting = false;
    std::list<Id>::iterator in_all;      // valid while waiting
    std::list<Id>::iterator in_address;  // valid while waiting
  };

  std::unordered_map<std::string, Address> addresses_;
  std::unordered_map<Id, Entry> connections_;
  std::list<Id> waiting_;  // oldest first
};

}  // namespace errdex::web
