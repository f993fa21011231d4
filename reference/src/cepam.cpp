// placeholder, replaced below
#include "dpfl/ref/cepam.hpp"
