/**
 * Built-in MDX components: authors use them in pages without imports. The renderer passes this object to
 * `<Content components={mdxComponents} />`. Author documentation: README.md in this folder. The names and props
 * authors may use are listed in sites/content/sanitize.ts (MDX_COMPONENTS); every name there has a component here.
 */
import Accordion from './Accordion.astro';
import AccordionGroup from './AccordionGroup.astro';
import Badge from './Badge.astro';
import Callout from './Callout.astro';
import Card from './Card.astro';
import CardGroup from './CardGroup.astro';
import Check from './Check.astro';
import CodeGroup from './CodeGroup.astro';
import Color from './Color.astro';
import ColorItem from './ColorItem.astro';
import ColorRow from './ColorRow.astro';
import Columns from './Columns.astro';
import Danger from './Danger.astro';
import Error from './Error.astro';
import Expandable from './Expandable.astro';
import Frame from './Frame.astro';
import Heading from './Heading.astro';
import Icon from './Icon.astro';
import Image from './Image.astro';
import Info from './Info.astro';
import Note from './Note.astro';
import Panel from './Panel.astro';
import ParamField from './ParamField.astro';
import Prompt from './Prompt.astro';
import Property from './Property.astro';
import RequestExample from './RequestExample.astro';
import ResponseExample from './ResponseExample.astro';
import ResponseField from './ResponseField.astro';
import Step from './Step.astro';
import Steps from './Steps.astro';
import Success from './Success.astro';
import Tab from './Tab.astro';
import TabItem from './TabItem.astro';
import Tabs from './Tabs.astro';
import Tile from './Tile.astro';
import Tip from './Tip.astro';
import Tooltip from './Tooltip.astro';
import Tree from './Tree.astro';
import TreeFile from './TreeFile.astro';
import TreeFolder from './TreeFolder.astro';
import Tweet from './Tweet.astro';
import Update from './Update.astro';
import Video from './Video.astro';
import View from './View.astro';
import Vimeo from './Vimeo.astro';
import Visibility from './Visibility.astro';
import Warning from './Warning.astro';
import YouTube from './YouTube.astro';
import Zapp from './Zapp.astro';

/** `<Tree.Folder>` and `<Color.Item>` compile to member lookups on the `Tree` and `Color` components. */
const TreeWithParts = Object.assign(Tree, { Folder: TreeFolder, File: TreeFile });
const ColorWithParts = Object.assign(Color, { Row: ColorRow, Item: ColorItem });

export const mdxComponents = {
  Note,
  Tip,
  Info,
  Warning,
  Danger,
  Error,
  Success,
  Check,
  Callout,
  Tabs,
  Tab,
  TabItem,
  CodeGroup,
  RequestExample,
  ResponseExample,
  Steps,
  Step,
  Card,
  CardGroup,
  Columns,
  Tile,
  Accordion,
  AccordionGroup,
  Expandable,
  Property,
  ParamField,
  ResponseField,
  Icon,
  Badge,
  Tooltip,
  Update,
  Heading,
  Panel,
  View,
  Visibility,
  Prompt,
  Tree: TreeWithParts,
  Color: ColorWithParts,
  Image,
  Frame,
  YouTube,
  Vimeo,
  Video,
  Tweet,
  Zapp,
};

export type MdxComponentName = keyof typeof mdxComponents;
