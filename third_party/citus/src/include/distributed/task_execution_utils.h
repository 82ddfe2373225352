#ifndef TASK_EXECUTION_UTILS_H
#define TASK_EXECUTION_UTILS_H

extern List * CreateTaskListForJobTree(List *jobTaskList);

#endif /* TASK_EXECUTION_UTILS_H */
