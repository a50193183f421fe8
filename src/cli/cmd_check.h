/* cmd_check.h - `gpubound check`: a kernel spec checked without a GPU. */
#ifndef GB_CMD_CHECK_H
#define GB_CMD_CHECK_H

int gb_cmd_check(int argc, char **argv);

#endif
