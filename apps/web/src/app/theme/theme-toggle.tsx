import { Button } from '../../ui/button';
import { MoonIcon, SunIcon } from '../../ui/icons';
import { getOppositeTheme } from './theme';
import { useTheme } from './theme-provider';

/**
 * The header button that switches between the light and dark themes (accounts §4 theme). A toggle button
 * named for one state, so assistive tech reads "Dark theme, pressed" or "not pressed"; the tooltip says
 * what a press does.
 */
export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Dark theme"
      aria-pressed={theme === 'dark'}
      title={`Switch to ${getOppositeTheme(theme)} theme`}
      onClick={toggleTheme}
    >
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
    </Button>
  );
}
