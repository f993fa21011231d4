// PLACEHOLDER — replaced by the seed 002 checker in this session.
#include "claims.hpp"
namespace dpfl::proofs {
void AddSeed002Claims(Catalog&) {}
}  // namespace dpfl::proofs
