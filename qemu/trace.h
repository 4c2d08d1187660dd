#include "trace/trace-hw_arbel.h"
