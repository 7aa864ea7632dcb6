import { useState } from "react";

type Props = {
  label: string;
  start: number;
};

export function Counter({ label, start }: Props) {
  const [count, setCount] = useState(start);
  const bump = () => {
    setCount(count + 1);
  };
  return (
    <div className="counter">
      <span>{label}</span>
      <button onClick={bump}>{count}</button>
    </div>
  );
}

export function List({ items }: { items: string[] }) {
  if (items.length === 0) {
    return <p>{"nothing yet"}</p>;
  }
  return (
    <ul>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
