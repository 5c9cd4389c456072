// Declarations only: see include/fuzz_driver.h.
#include "fuzz_driver.h"
