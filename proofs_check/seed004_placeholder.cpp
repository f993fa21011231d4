// PLACEHOLDER — replaced by the seed 004 checker in this session.
#include "claims.hpp"
namespace dpfl::proofs {
void AddSeed004Claims(Catalog&) {}
}  // namespace dpfl::proofs
