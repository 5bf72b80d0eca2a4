/**
 * The demo shell's entry: defines the platform's elements (`<pp-platform>` first, which
 * `<demo-app>` reads when it is created), then the shell's.
 */
import '../../src/components/index';
import './demo-app';
