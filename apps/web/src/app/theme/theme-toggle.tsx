import { Button } from '../../ui/button';
import { MoonIcon, SunIcon } from '../../ui/icons';
import { useTheme } from './theme-provider';

/** The header button that switches between the light and dark themes (accounts §4 theme). */
export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Toggle theme"
      title={`Switch to the ${next} theme`}
      onClick={toggleTheme}
    >
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </Button>
  );
}
