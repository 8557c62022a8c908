import { Badge } from '../../../ui/badge';

/** Marks one of the installation's built-in library voices (the API's `featured`). */
export function BuiltInBadge() {
  return (
    <Badge tone="accent" title="A voice that comes with this server, curated for the library">
      Built-in
    </Badge>
  );
}
