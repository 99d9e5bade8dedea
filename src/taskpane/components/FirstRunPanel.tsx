// What a newcomer sees before signing in: what PCD does, the five functions with one
// example each, where help is, where an account comes from and, in development builds
// only, the local emulator's account. Production bundles carry no emulator address or
// password: the branch below is removed at build time (webpack defines the build's kind,
// src/host/build-kind.ts).
import { Body1, Caption1, Link, makeStyles, Subtitle2, tokens } from "@fluentui/react-components";
import { isDevelopmentBuild } from "../../host/build-kind";

const useStyles = makeStyles({
  root: {
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  functions: {
    margin: 0,
    paddingLeft: tokens.spacingHorizontalL,
    display: "flex",
    flexDirection: "column",
    gap: tokens.spacingVerticalXS,
  },
  code: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    overflowWrap: "anywhere",
  },
});

/** The five functions, each with one example a newcomer can paste into a cell. */
export const FUNCTION_EXAMPLES: ReadonlyArray<{ name: string; example: string; what: string }> = [
  { name: "PCD.VALUES", example: '=PCD.VALUES("68520-8-1")', what: "a monthly table that spills" },
  { name: "PCD.VALUE", example: '=PCD.VALUE("68520-8-1", "2025-06")', what: "one month's value" },
  { name: "PCD.INFO", example: '=PCD.INFO("68520-8-1", "assessment")', what: "what a series is" },
  { name: "PCD.SEARCH", example: '=PCD.SEARCH("ethylene")', what: "find codes (free)" },
  { name: "PCD.LIMITS", example: "=PCD.LIMITS()", what: "data requests left" },
];

/** The add-in's help page, served next to the task pane. */
export const HELP_PAGE = "help.html";

export function FirstRunPanel(): React.JSX.Element {
  const styles = useStyles();
  return (
    <section className={styles.root} aria-labelledby="pcd-first-run" data-testid="first-run">
      <Subtitle2 as="h2" id="pcd-first-run">
        Welcome to PCD
      </Subtitle2>
      <Body1>
        PCD puts monthly price and cost series (energy, commodities, industry economics) into Excel cells and
        updates them after each monthly release. Each month you have a few hundred data requests per dataset;
        cached values cost none.
      </Body1>
      <ul className={styles.functions} aria-label="The five functions">
        {FUNCTION_EXAMPLES.map((fn) => (
          <li key={fn.name}>
            <code className={styles.code}>{fn.example}</code>
            <Caption1>: {fn.what}</Caption1>
          </li>
        ))}
      </ul>
      <Body1>
        Codes go in quotes. After signing in, the <strong>Series</strong> tab finds series and writes the
        formulas for you.
      </Body1>
      <Body1>
        <strong>Account:</strong> your username and password come with your organisation&apos;s PCD
        subscription; ask your PCD account manager for one.
      </Body1>
      {isDevelopmentBuild() && (
        <Caption1 data-testid="first-run-emulator">
          Development build: <code className={styles.code}>npm start</code> runs a local emulator of the
          service (the default address); sign in as <code className={styles.code}>analyst@pcd.example</code>{" "}
          with the password <code className={styles.code}>pcd-emulator</code>.
        </Caption1>
      )}
      <Body1>
        <Link href={HELP_PAGE} target="_blank" rel="noopener">
          Help: the functions, their arguments and messages
        </Link>
      </Body1>
    </section>
  );
}
