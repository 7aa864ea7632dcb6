// A small client-side store for the reading list: books, shelves, progress and sync.

export type ShelfName = "to-read" | "reading" | "finished" | "abandoned";

export interface Book {
  isbn: string;
  title: string;
  author: string;
  pageCount: number;
  shelf: ShelfName;
  currentPage: number;
  rating?: number;
  addedAt: Date;
}

export interface SyncResult {
  uploaded: number;
  downloaded: number;
  conflicts: string[];
}

const MESSAGES = {
  notFound:      (isbn: string) => `No book with ISBN “${isbn}” on your shelves.`,
  badRating:     "A rating goes from 1 to 5 stars.",
  pageTooHigh:   (max: number) => `That book only has ${max} pages — check the number.`,
  alreadyThere:  (title: string) => `“${title}” is already on your list.`,
};

export class ReadingList {
  private books = new Map<string, Book>();
  private listeners: Array<(book: Book) => void> = [];
  private dirty = new Set<string>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  add(isbn: string, title: string, author: string, pageCount: number): Book {
    if (this.books.has(isbn)) {
      throw new Error(MESSAGES.alreadyThere(title));
    }
    const book: Book = {
      isbn,
      title,
      author,
      pageCount,
      shelf: "to-read",
      currentPage: 0,
      addedAt: this.now(),
    };
    this.books.set(isbn, book);
    this.markDirty(book);
    return book;
  }

  get(isbn: string): Book {
    const book = this.books.get(isbn);
    if (!book) {
      throw new Error(MESSAGES.notFound(isbn));
    }
    return book;
  }

  move(isbn: string, shelf: ShelfName): void {
    const book = this.get(isbn);
    if (book.shelf === shelf) {
      return;
    }
    book.shelf = shelf;
    if (shelf === "finished") {
      book.currentPage = book.pageCount;
    }
    this.markDirty(book);
  }

  updateProgress(isbn: string, page: number): number {
    const book = this.get(isbn);
    if (page > book.pageCount) {
      throw new Error(MESSAGES.pageTooHigh(book.pageCount));
    }
    book.currentPage = Math.max(0, page);
    if (book.shelf === "to-read" && page > 0) {
      book.shelf = "reading";
    }
    this.markDirty(book);
    return Math.round((book.currentPage / book.pageCount) * 100);
  }

  rate(isbn: string, stars: number): void {
    if (!Number.isInteger(stars) || stars < 1 || stars > 5) {
      throw new RangeError(MESSAGES.badRating);
    }
    const book = this.get(isbn);
    book.rating = stars;
    this.markDirty(book);
  }

  onChange(listener: (book: Book) => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  shelf(name: ShelfName): Book[] {
    return [...this.books.values()]
      .filter((book) => book.shelf === name)
      .sort((a, b) => a.title.localeCompare(b.title));
  }

  averageRating(): number | undefined {
    const rated = [...this.books.values()].filter((b) => b.rating !== undefined);
    if (rated.length === 0) {
      return undefined;
    }
    const sum = rated.reduce((total, b) => total + (b.rating ?? 0), 0);
    return Math.round((sum / rated.length) * 10) / 10;
  }

  async sync(remote: RemoteShelf): Promise<SyncResult> {
    const result: SyncResult = { uploaded: 0, downloaded: 0, conflicts: [] };
    const theirs = await remote.fetchAll();
    for (const book of theirs) {
      const mine = this.books.get(book.isbn);
      if (!mine) {
        this.books.set(book.isbn, book);
        result.downloaded += 1;
      } else if (this.dirty.has(book.isbn) && mine.currentPage !== book.currentPage) {
        result.conflicts.push(book.isbn);
      }
    }
    for (const isbn of this.dirty) {
      if (result.conflicts.includes(isbn)) {
        continue;
      }
      await remote.upload(this.get(isbn));
      result.uploaded += 1;
    }
    this.dirty.clear();
    return result;
  }

  private markDirty(book: Book): void {
    this.dirty.add(book.isbn);
    for (const listener of this.listeners) {
      listener(book);
    }
  }
}

export interface RemoteShelf {
  fetchAll(): Promise<Book[]>;
  upload(book: Book): Promise<void>;
}

export function summarize(list: ReadingList): string {
  const finished = list.shelf("finished");
  const reading = list.shelf("reading");
  const parts = [
    `${finished.length} finished`,
    `${reading.length} in progress`,
  ];
  const average = list.averageRating();
  if (average !== undefined) {
    parts.push(`average rating ${average} ★`);
  }
  return parts.join(" · ");
}
