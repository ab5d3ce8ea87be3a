import { Svg } from './svg';

export namespace Icons {
  export function Avatar({ url }: { url: string }) {
    return (
      <Svg width={24}>
        <image href={url} />
      </Svg>
    );
  }
}

export const cache = new Map<string, JSX.Element>();
