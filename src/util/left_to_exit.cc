#include "util/left_to_exit.h"

#include <mutex>
#include <vector>

namespace errdex {
namespace {

struct Left {
  std::mutex mutex;
  std::vector<std::shared_ptr<void>> objects;
};

Left& TheLeft() {
  static auto* left = new Left();  // never destroyed
  return *left;
}

}  // namespace

void LeaveToExit(std::shared_ptr<void> object) {
  Left& left = TheLeft();
  std::lock_guard<std::mutex> lock(left.mutex);
  left.objects.push_back(std::move(object));
}

size_t LeftToExitCount() {
  Left& left = TheLeft();
  std::lock_guard<std::mutex> lock(left.mutex);
  return left.objects.size();
}

}  // namespace errdex
