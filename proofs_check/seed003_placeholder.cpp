// PLACEHOLDER — replaced by the seed 003 checker in this session.
#include "claims.hpp"
namespace dpfl::proofs {
void AddSeed003Claims(Catalog&) {}
}  // namespace dpfl::proofs
