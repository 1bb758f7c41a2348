#include "web/connection_registry.h"

namespace errdex::web {

void ConnectionRegistry::Add(Id id, const std::string& address) {
  auto it = addresses_.try_emplace(address).first;
  ++it->second.connections;
  connections_.emplace(id, Entry{it, false, {}, {}});
}

void ConnectionRegistry::Remove(Id id) {
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  MarkBusy(id);
  auto address = it->second.address;
  if (--address->second.connections == 0) addresses_.erase(address);
  connections_.erase(it);
}

void ConnectionRegistry::MarkWaiting(Id id) {
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  MarkBusy(id);
  Entry& e = it->second;
  e.waiting = true;
  e.in_all = waiting_.insert(waiting_.end(), id);
  e.in_address = e.address->second.waiting.insert(e.address->second.waiting.end(), id);
}

void ConnectionRegistry::MarkBusy(Id id) {
  auto it = connections_.find(id);
  if (it == connections_.end() || !it->second.waiting) return;
  Entry& e = it->second;
  waiting_.erase(e.in_all);
  e.address->second.waiting.erase(e.in_address);
  e.waiting = false;
}

size_t ConnectionRegistry::CountOf(const std::string& address) const {
  auto it = addresses_.find(address);
  return it == addresses_.end() ? 0 : it->second.connections;
}

std::optional<ConnectionRegistry::Id> ConnectionRegistry::OldestWaiting() const {
  if (waiting_.empty()) return std::nullopt;
  return waiting_.front();
}

std::optional<ConnectionRegistry::Id> ConnectionRegistry::OldestWaitingOf(const std::string& address) const {
  auto it = addresses_.find(address);
  if (it == addresses_.end() || it->second.waiting.empty()) return std::nullopt;
  return it->second.waiting.front();
}

}  // namespace errdex::web
