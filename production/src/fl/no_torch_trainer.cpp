// MakeTorchTrainer and MakeTorchBnnModel for builds without LibTorch (sanitizer, DPFL_TORCH=OFF):
// `dpfl train` then reports that it is not available; everything else of the FL code still
// builds and is tested.
#include "dpfl/error.hpp"
#include "dpfl/fl/bnn_training.hpp"
#include "dpfl/fl/trainer.hpp"

namespace dpfl::fl {

bool HaveTorchTrainer() { return false; }

std::unique_ptr<LocalTrainer> MakeTorchTrainer(const TrainerOptions&, int, int, int, int) {
  throw InvalidArgument("train", "this dpfl was built without LibTorch (DPFL_TORCH=OFF or DPFL_SANITIZE=ON)");
}

std::unique_ptr<BnnLocalModel> MakeTorchBnnModel(const BnnModelOptions&, int, int, int, int) {
  throw InvalidArgument("train", "this dpfl was built without LibTorch (DPFL_TORCH=OFF or DPFL_SANITIZE=ON)");
}

}  // namespace dpfl::fl
