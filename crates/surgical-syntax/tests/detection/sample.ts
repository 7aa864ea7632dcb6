export interface Task {
  id: number;
  title: string;
  done: boolean;
}

export class TaskList {
  private tasks: Task[] = [];

  add(title: string): Task {
    const task: Task = { id: this.tasks.length + 1, title, done: false };
    this.tasks.push(task);
    return task;
  }

  complete(id: number): boolean {
    const task = this.tasks.find((t) => t.id === id);
    if (!task) {
      return false;
    }
    task.done = true;
    return true;
  }

  pending(): string[] {
    return this.tasks.filter((t) => !t.done).map((t) => t.title);
  }
}

const list = new TaskList();
list.add("write");
console.log("pending", list.pending());
