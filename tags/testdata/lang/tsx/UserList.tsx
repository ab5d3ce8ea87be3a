import React, { useState } from 'react';
import { observer } from 'mobx-react';
import type { User } from './api';
import { Icons } from './icons';

export { UserCard } from './UserCard';

export const PAGE_SIZE = 20;
let renders = 0;

export enum SortOrder {
  Name,
  Joined,
}

export type Filter = {
  query: string;
  matches(user: User): boolean;
};

export interface UserListProps {
  users: User[];
  onSelect?(user: User): void;
}

interface Selectable {
  clearSelection(): void;
}

@observer
export class UserList extends React.Component<UserListProps> implements Selectable {
  selected: User | null = null;

  constructor(props: UserListProps) {
    super(props);
    renders += 1;
  }

  clearSelection(): void {
    this.selected = null;
  }

  handleClick = (user: User) => {
    this.selected = user;
    this.props.onSelect?.(user);
  };

  render() {
    return (
      <ul className="users">
        {this.props.users.slice(0, PAGE_SIZE).map((u) => (
          <UserRow key={u.id} user={u} onClick={() => this.handleClick(u)} />
        ))}
      </ul>
    );
  }
}

export function UserRow({ user, onClick }: { user: User; onClick(): void }) {
  return (
    <li onClick={onClick}>
      <Icons.Avatar url={user.avatarUrl} />
      {user.name}
    </li>
  );
}

export const SearchBox = ({ filter }: { filter: Filter }) => {
  const [text, setText] = useState(filter.query);
  return <input value={text} onChange={(e) => setText(e.target.value)} />;
};
