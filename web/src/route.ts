// Hash routes (`#/trends/12`): the server only ever serves `/`, so no path can collide with the API's.
import { useEffect, useState } from 'preact/hooks';

interface Route {
  page: string;
  id: number | null;
}

/** `#/crisis/7` → {page: 'crisis', id: 7}; anything unknown → the trends explorer. */
function parseRoute(hash: string): Route {
  const [page = '', id] = hash.replace(/^#\/?/, '').split('/');
  const known = ['trends', 'crisis', 'recommendations', 'alerts', 'account'];
  const number = id !== undefined && /^\d+$/.test(id) ? Number(id) : null;
  return known.includes(page) ? { page, id: number } : { page: 'trends', id: null };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}
